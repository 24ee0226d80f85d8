// The operator's overview (docs/operators.md "Reports"): summary and daily series over a period.
import { Elysia, t } from 'elysia'
import { adminContext, type Gate } from '../context.ts'
import type { AdminDeps } from '../deps.ts'
import { dailyReport } from './daily.ts'
import { parsePeriod } from './period.ts'
import { summaryReport } from './summary.ts'

const PeriodQuery = t.Object({ from: t.String({ maxLength: 10 }), to: t.String({ maxLength: 10 }) })

export function reportRoutes(deps: AdminDeps, gate: Gate) {
  return new Elysia({ prefix: '/api/admin/reports' })
    .use(adminContext(deps, gate))
    .get('/summary', ({ query }) => summaryReport(deps.db, parsePeriod(query.from, query.to)), { query: PeriodQuery })
    .get('/daily', ({ query }) => dailyReport(deps.db, parsePeriod(query.from, query.to)), { query: PeriodQuery })
}
