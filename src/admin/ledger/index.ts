// Ledger health (docs/operators.md "Ledger health"): the outbox's backlog and the writer's lag
// (the age of the oldest record not yet written), and the dead letters with retry and discard,
// both audited.
import { Elysia, t } from 'elysia'
import { strictBody } from '../../http/strict-body.ts'
import { recordAudit } from '../audit.ts'
import { adminContext, type Gate } from '../context.ts'
import type { AdminDeps } from '../deps.ts'
import { deadLetter, deadLetterStats, discardDeadLetter, listDeadLetters, retryDeadLetter } from './dead-letters.ts'

const PageQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, error: 'limit must be an integer from 1 to 100.' })),
  cursor: t.Optional(t.String({ maxLength: 200 })),
})
const Discard = t.Object({ note: t.String({ minLength: 1, maxLength: 500 }) })

export function ledgerRoutes(deps: AdminDeps, gate: Gate) {
  return new Elysia({ prefix: '/api/admin/ledger' })
    .use(adminContext(deps, gate))
    .get('/health', async () => {
      const [outbox, dead] = await Promise.all([deps.store.outboxStats(), deadLetterStats(deps.db)])
      const lagMs = outbox.oldestMs === null ? 0 : Math.max(0, deps.now() - outbox.oldestMs)
      return { outbox: { backlog: outbox.depth, writerLagMs: lagMs }, deadLetters: dead }
    })
    .get('/dead-letters', ({ query }) => listDeadLetters(deps.db, { limit: query.limit ?? 20, cursor: query.cursor }), { query: PageQuery })
    .get('/dead-letters/:id', ({ params }) => deadLetter(deps.db, params.id))
    .post('/dead-letters/:id/retry', async ({ params, actor }) => {
      const { row, written } = await retryDeadLetter(deps.db, params.id)
      await recordAudit(deps.db, actor, { action: 'dead_letter.retry', target: params.id, before: row, after: { written } })
      return { id: params.id, retried: true, written }
    })
    .post(
      '/dead-letters/:id/discard',
      async ({ params, body, actor }) => {
        const row = await discardDeadLetter(deps.db, params.id)
        await recordAudit(deps.db, actor, { action: 'dead_letter.discard', target: params.id, before: row, note: body.note })
        return { id: params.id, discarded: true }
      },
      strictBody(Discard),
    )
}
