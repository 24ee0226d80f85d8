// Request logs: filters (key, model, status), keyset pages.
import { api, qs, type Page } from '../api.ts'
import { h } from '../dom.ts'
import { filterBar } from '../filters.ts'
import { int, usd, when } from '../format.ts'
import { field } from '../forms.ts'
import type { Query } from '../router.ts'
import type { Key, Log } from '../types.ts'
import { pagedTable, type Column } from '../ui.ts'

export const logColumns: Column<Log>[] = [
  { label: 'Time', cell: (l) => when(l.createdAt) },
  { label: 'Model', cell: (l) => h('code', null, l.model) },
  {
    label: 'Status',
    cell: (l) => h('span', { class: l.status < 400 ? 'ok' : 'bad' }, `${l.status}${l.errorCode ? ` ${l.errorCode}` : ''}`),
  },
  { label: 'Tokens in / out', cell: (l) => `${int(l.inputTokens)} / ${int(l.outputTokens)}`, num: true },
  { label: 'Cost', cell: (l) => usd(l.cost), num: true },
  { label: 'Latency', cell: (l) => `${int(l.latencyMs)} ms`, num: true },
  { label: 'Request id', cell: (l) => h('code', { class: 'id' }, l.id) },
]

export async function logsPage(view: HTMLElement, _: Record<string, string>, query: Query) {
  view.append(h('h1', { tabindex: -1 }, 'Request logs'))
  const keys = await api<Page<Key>>('/api/keys?limit=100')
  const key = field({
    name: 'keyId',
    label: 'API key',
    options: [['', 'All keys'], ...keys.items.map((k): [string, string] => [k.id, `${k.name || 'unnamed'} (${k.prefix}…)`])],
  })
  const model = field({
    name: 'model',
    label: 'Model',
    type: 'search',
    placeholder: 'e.g. openai/gpt-4o-mini',
    maxlength: 200,
    autocomplete: 'off',
  })
  const status = field({
    name: 'status',
    label: 'Status',
    options: [
      ['', 'Any'],
      ['success', 'Succeeded'],
      ['error', 'Failed'],
    ],
  })
  const keyName = new Map(keys.items.map((k) => [k.id, k.name || k.prefix]))
  const columns: Column<Log>[] = [
    ...logColumns.slice(0, 2),
    { label: 'Key', cell: (l) => keyName.get(l.keyId) ?? l.keyId },
    ...logColumns.slice(2),
  ]
  const bar = filterBar('Filter request logs', [key, model, status], query, (v) =>
    pagedTable('Request logs', columns, (cursor) => `/api/logs${qs({ ...v, limit: 50, cursor })}`, 'No calls match these filters.'),
  )
  view.append(bar.form, bar.out)
  await bar.draw()
}
