// One user for the operator (docs/operators.md "Users"): balance and reserved, credit or debit
// with a note, disable or enable, grant or take admin; keys with revoke; recent transactions
// (refund a top-up) and calls. Every change is audited by the API.
import { api, type Page } from '../../api.ts'
import { fill, h } from '../../dom.ts'
import { busy, field, formError, showError, validate } from '../../forms.ts'
import { signedUsd, usd, when } from '../../format.ts'
import type { Log, Txn } from '../../types.ts'
import { badge, stat, table } from '../../ui.ts'
import { logColumns } from '../logs.ts'
import { actionButton } from './action.ts'
import { operatorPage } from './frame.ts'
import type { AdminUser } from './types.ts'

type AdminKey = { id: string; name: string; prefix: string; spent: number; revokedAt: string | null; createdAt: string }

export async function adminUserPage(view: HTMLElement, params: Record<string, string>) {
  if (!(await operatorPage(view, 'User'))) return
  const id = params.id!
  const base = `/api/admin/users/${encodeURIComponent(id)}`
  const body = h('div')
  view.append(body)
  const refresh = async () => {
    const [user, keys, txns, logs] = await Promise.all([
      api<AdminUser>(base),
      api<{ items: AdminKey[] }>(`${base}/keys`),
      api<Page<Txn>>(`${base}/transactions?limit=20`),
      api<Page<Log>>(`${base}/logs?limit=10`),
    ])
    fill(
      body,
      summary(user),
      creditForm(base, refresh),
      switches(base, user, refresh),
      keyList(keys.items, refresh),
      txnList(txns.items, refresh),
      callList(logs.items),
    )
  }
  await refresh()
}

function summary(u: AdminUser) {
  return h(
    'section',
    { 'aria-labelledby': 'who' },
    h('h2', { id: 'who' }, u.email),
    h(
      'dl',
      { class: 'stats' },
      stat('Balance', usd(u.balance), 'user-balance'),
      stat('Reserved', usd(u.reserved ?? 0)),
      stat('Role', u.role, 'user-role'),
      stat('State', u.disabled ? 'disabled' : 'active', 'user-state'),
    ),
  )
}

function creditForm(base: string, refresh: () => Promise<void>) {
  const amount = field({
    name: 'amount',
    label: 'Amount (USD)',
    type: 'number',
    step: 0.000001,
    required: true,
    inputmode: 'decimal',
    hint: 'Negative to debit.',
  })
  const note = field({ name: 'note', label: 'Note', maxlength: 500, required: true })
  const error = formError()
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Apply adjustment')
  const form = h(
    'form',
    { class: 'card', novalidate: true, 'aria-labelledby': 'adjust' },
    h('h2', { id: 'adjust' }, 'Credit or debit'),
    h('div', { class: 'grid' }, amount.wrap, note.wrap),
    h('div', { class: 'actions' }, submit),
    error,
  )
  const run = busy(submit, async () => {
    if (!validate([amount, note], error)) return
    try {
      await api(`${base}/credits`, { method: 'POST', body: { amount: Number(amount.input.value), note: note.input.value } })
      await refresh()
    } catch (e) {
      showError(e, [amount, note], error)
    }
  })
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    void run()
  })
  return form
}

function switches(base: string, u: AdminUser, refresh: () => Promise<void>) {
  const error = formError()
  const post = (path: string, body?: unknown) => () => api(`${base}${path}`, { method: 'POST', body })
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'account' },
    h('h2', { id: 'account' }, 'Account'),
    h(
      'div',
      { class: 'actions' },
      u.disabled
        ? actionButton('Enable user', 'secondary', post('/enable'), refresh, error)
        : actionButton('Disable user', 'danger', post('/disable'), refresh, error),
      u.role === 'admin'
        ? actionButton('Take admin', 'secondary', post('/role', { role: 'user' }), refresh, error)
        : actionButton('Grant admin', 'secondary', post('/role', { role: 'admin' }), refresh, error),
    ),
    error,
  )
}

function keyList(keys: AdminKey[], refresh: () => Promise<void>) {
  const error = formError()
  const revoke = (k: AdminKey) =>
    k.revokedAt
      ? badge('revoked')
      : actionButton(
          `Revoke ${k.prefix}`,
          'danger-link',
          () => api(`/api/admin/keys/${encodeURIComponent(k.id)}`, { method: 'DELETE' }),
          refresh,
          error,
        )
  return h(
    'section',
    { 'aria-labelledby': 'keys' },
    h('h2', { id: 'keys' }, 'API keys'),
    keys.length
      ? table(
          'API keys',
          [
            { label: 'Name', cell: (k: AdminKey) => k.name || '—' },
            { label: 'Key', cell: (k: AdminKey) => h('code', null, `${k.prefix}…`) },
            { label: 'Spent', cell: (k: AdminKey) => usd(k.spent), num: true },
            { label: 'Created', cell: (k: AdminKey) => when(k.createdAt) },
            { label: 'Revoke', cell: revoke },
          ],
          keys,
        ).wrap
      : h('p', { class: 'empty' }, 'No keys.'),
    error,
  )
}

function txnList(txns: Txn[], refresh: () => Promise<void>) {
  const error = formError()
  const refund = (t: Txn) =>
    t.kind === 'topup' && t.status === 'completed'
      ? actionButton(
          'Refund',
          'danger-link',
          () => api('/api/admin/refunds', { method: 'POST', body: { transactionId: t.id, note: 'refund from the operator console' } }),
          refresh,
          error,
        )
      : ''
  return h(
    'section',
    { 'aria-labelledby': 'txns' },
    h('h2', { id: 'txns' }, 'Recent transactions'),
    txns.length
      ? table(
          'Recent transactions',
          [
            { label: 'When', cell: (t: Txn) => when(t.createdAt) },
            { label: 'Kind', cell: (t: Txn) => t.kind },
            { label: 'Status', cell: (t: Txn) => badge(t.status) },
            { label: 'Amount', cell: (t: Txn) => signedUsd(t.amount), num: true },
            { label: 'Refund', cell: refund },
          ],
          txns,
        ).wrap
      : h('p', { class: 'empty' }, 'No transactions.'),
    error,
  )
}

const callList = (logs: Log[]) =>
  h(
    'section',
    { 'aria-labelledby': 'calls' },
    h('h2', { id: 'calls' }, 'Recent calls'),
    logs.length ? table('Recent calls', logColumns, logs).wrap : h('p', { class: 'empty' }, 'No calls.'),
    h('p', { class: 'muted' }, `The last ${logs.length} call(s).`),
  )
