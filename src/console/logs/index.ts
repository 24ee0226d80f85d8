// GET /api/logs (docs/console.md "Request logs": same keyset pagination as the ledger) and /api/logs/:id.
import { Elysia, t } from 'elysia'
import { type ContextDeps, consoleContext, sessionRequired } from '../http/context.ts'
import { SESSION_SECURITY } from '../http/models.ts'
import { LogList, LogsQuery, RequestLog } from './model.ts'
import { listLogs, logDetail } from './service.ts'

const detail = (summary: string) => ({ tags: ['logs'], summary, security: SESSION_SECURITY })

export function logsFeature(deps: ContextDeps) {
  return new Elysia({ prefix: '/api/logs' })
    .use(sessionRequired(deps))
    .use(consoleContext(deps))
    .get('', ({ user, query }) => listLogs(deps, user.id, query), {
      query: LogsQuery,
      response: { 200: LogList },
      detail: detail('Your request logs, newest first; keyset pages; filters keyId, model and status (success/error)'),
    })
    .get('/:id', ({ user, params }) => logDetail(deps, user.id, params.id), {
      params: t.Object({ id: t.String({ maxLength: 100 }) }),
      response: { 200: RequestLog },
      detail: detail('One request log, by its x-request-id'),
    })
}
