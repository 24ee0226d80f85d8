// Transactions: the ledger, keyset pages with kind/status filters, and one entry's detail.
import { api, qs } from '../api.ts'
import { h, type Child } from '../dom.ts'
import { filterBar } from '../filters.ts'
import { int, signedUsd, usd, when } from '../format.ts'
import { field } from '../forms.ts'
import type { Query } from '../router.ts'
import type { Txn } from '../types.ts'
import { badge, pagedTable, type Column } from '../ui.ts'

const KIND: Record<string, string> = { topup: 'Top-up', usage: 'Usage', refund: 'Refund', adjustment: 'Adjustment' }

const columns: Column<Txn>[] = [
  { label: 'Time', cell: (t) => h('a', { href: `/console/transactions/${encodeURIComponent(t.id)}` }, when(t.createdAt)) },
  { label: 'Kind', cell: (t) => KIND[t.kind] ?? t.kind },
  { label: 'Status', cell: (t) => badge(t.status) },
  { label: 'Amount', cell: (t) => signedUsd(t.amount), num: true },
  { label: 'Method', cell: (t) => t.method ?? '—' },
]

export async function transactionsPage(view: HTMLElement, _: Record<string, string>, query: Query) {
  view.append(h('h1', { tabindex: -1 }, 'Transactions'))
  const kind = field({ name: 'kind', label: 'Kind', options: [['', 'All kinds'], ...Object.entries(KIND)] })
  const status = field({
    name: 'status',
    label: 'Status',
    options: [
      ['', 'Any status'],
      ['pending', 'Pending'],
      ['completed', 'Completed'],
      ['failed', 'Failed'],
    ],
  })
  const bar = filterBar('Filter transactions', [kind, status], query, (v) =>
    pagedTable(
      'Transactions',
      columns,
      (cursor) => `/api/wallet/transactions${qs({ ...v, limit: 50, cursor })}`,
      'No transactions match these filters.',
    ),
  )
  view.append(bar.form, bar.out)
  await bar.draw()
}

/** What the transaction detail adds to a row (docs/console.md): usage calls, refunds, top-ups. */
interface TxnDetail {
  model?: string
  usage?: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; reasoningTokens: number }
  refunded?: number
  refundOf?: string
  failure?: string
  note?: string
  events?: { receivedAt: string; type: string; outcome: string }[]
}

export async function transactionPage(view: HTMLElement, params: Record<string, string>) {
  view.append(h('p', { class: 'crumb' }, h('a', { href: '/console/transactions' }, '← Transactions')))
  const t = await api<Txn & TxnDetail>(`/api/wallet/transactions/${encodeURIComponent(params.id!)}`)
  const rows: [string, Child][] = [
    ['Amount', signedUsd(t.amount)],
    ['Status', badge(t.status)],
    ['Created', when(t.createdAt)],
    ['Completed', when(t.completedAt)],
    ['Method', t.method ?? '—'],
    ['Reference', t.reference ? h('code', null, t.reference) : '—'],
  ]
  if (t.model) rows.push(['Model', h('code', null, t.model)])
  if (t.requestId) rows.push(['Request id', h('code', null, t.requestId)])
  if (t.usage)
    rows.push([
      'Tokens',
      `${int(t.usage.inputTokens)} in, ${int(t.usage.outputTokens)} out, ${int(t.usage.cacheReadTokens)} cache read, ${int(t.usage.cacheWriteTokens)} cache write, ${int(t.usage.reasoningTokens)} reasoning`,
    ])
  if (typeof t.refunded === 'number' && t.refunded > 0) rows.push(['Refunded', usd(t.refunded)])
  if (t.refundOf) rows.push(['Refund of', h('a', { href: `/console/transactions/${encodeURIComponent(t.refundOf)}` }, t.refundOf)])
  if (t.failure) rows.push(['Why it failed', t.failure])
  if (t.note) rows.push(['Note', t.note])
  view.append(
    h('h1', { tabindex: -1 }, `${KIND[t.kind] ?? t.kind} ${signedUsd(t.amount)}`),
    h(
      'dl',
      { class: 'card details' },
      rows.map(([k, v]) => [h('dt', null, k), h('dd', null, v)]),
      [h('dt', null, 'Id'), h('dd', null, h('code', null, t.id))],
    ),
  )
  if (Array.isArray(t.events) && t.events.length)
    view.append(
      h('h2', null, 'Provider events'),
      h(
        'ul',
        null,
        t.events.map((e) => h('li', null, `${when(e.receivedAt)} · ${e.type} → ${e.outcome}`)),
      ),
    )
}
