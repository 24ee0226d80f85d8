// Ledger health (docs/operators.md "Ledger health"): the outbox backlog and the writer's lag; dead
// letters to inspect, retry, or discard with a note.
import { api, type Page } from '../../api.ts'
import { fill, h } from '../../dom.ts'
import { field, formError } from '../../forms.ts'
import { int, when } from '../../format.ts'
import { stat } from '../../ui.ts'
import { actionButton } from './action.ts'
import { operatorPage } from './frame.ts'
import type { DeadLetter } from './types.ts'

type Health = { outbox: { backlog: number; writerLagMs: number }; deadLetters: { count: number; oldestAt: string | null } }

export async function adminLedgerPage(view: HTMLElement) {
  if (!(await operatorPage(view, 'Ledger health'))) return
  const body = h('div')
  view.append(body)
  const refresh = async () => {
    const [health, letters] = await Promise.all([
      api<Health>('/api/admin/ledger/health'),
      api<Page<DeadLetter>>('/api/admin/ledger/dead-letters?limit=50'),
    ])
    fill(
      body,
      h(
        'dl',
        { class: 'stats' },
        stat('Outbox backlog', int(health.outbox.backlog), 'backlog'),
        stat('Writer lag', `${int(health.outbox.writerLagMs)} ms`, 'writer-lag'),
        stat('Dead letters', int(health.deadLetters.count), 'dead-letters'),
      ),
      h('h2', null, 'Dead letters'),
      letters.items.length
        ? letters.items.map((d) => letterCard(d, refresh))
        : h('p', { class: 'empty' }, 'No dead letters: every record reached the ledger.'),
    )
  }
  await refresh()
}

function letterCard(d: DeadLetter, refresh: () => Promise<void>) {
  const error = formError()
  const note = field({ name: 'note', label: `Note for discarding ${d.id}`, maxlength: 500 })
  const run = (label: string, cls: string, call: () => Promise<unknown>) => actionButton(label, cls, call, refresh, error)
  const path = `/api/admin/ledger/dead-letters/${encodeURIComponent(d.id)}`
  return h(
    'section',
    { class: 'card', 'aria-label': `Dead letter ${d.id}` },
    h('p', null, h('strong', null, d.requestId ?? d.id), ' · ', when(d.createdAt)),
    h('p', { class: 'bad' }, d.error),
    h('details', null, h('summary', null, 'Record'), h('pre', { class: 'raw', tabindex: 0 }, d.raw)),
    note.wrap,
    h(
      'div',
      { class: 'actions' },
      run(`Retry ${d.id}`, 'primary', () => api(`${path}/retry`, { method: 'POST' })),
      run(`Discard ${d.id}`, 'danger', () => api(`${path}/discard`, { method: 'POST', body: { note: note.input.value } })),
    ),
    error,
  )
}
