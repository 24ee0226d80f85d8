// The audit log (docs/operators.md "Audit log"): every change made through the admin API, newest
// first, with who made it and the state before and after.
import { qs } from '../../api.ts'
import { h } from '../../dom.ts'
import { when } from '../../format.ts'
import { pagedTable } from '../../ui.ts'
import { operatorPage } from './frame.ts'
import type { AuditRow } from './types.ts'

const json = (v: unknown) => (v === null || v === undefined ? '—' : h('code', null, JSON.stringify(v)))

export async function adminAuditPage(view: HTMLElement) {
  if (!(await operatorPage(view, 'Audit log'))) return
  view.append(
    await pagedTable<AuditRow>(
      'Audit log',
      [
        { label: 'When', cell: (a) => when(a.at) },
        { label: 'Who', cell: (a) => a.actorEmail ?? a.actor },
        { label: 'Action', cell: (a) => a.action },
        { label: 'Target', cell: (a) => a.target ?? '—' },
        { label: 'Before', cell: (a) => json(a.before) },
        { label: 'After', cell: (a) => json(a.after) },
        { label: 'Note', cell: (a) => a.note ?? '' },
      ],
      (cursor) => `/api/admin/audit${qs({ limit: 50, cursor })}`,
      'No changes yet.',
    ),
  )
}
