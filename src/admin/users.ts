// The operator's view of one user (docs/operators.md "Users"): the summary, and their ledger
// entries and calls with the same pages and filters the user's own console has.
import { Elysia } from 'elysia'
import { listLogs } from '../console/logs/service.ts'
import { LogsQuery } from '../console/logs/model.ts'
import { listTransactions } from '../console/transactions/service.ts'
import { TransactionsQuery } from '../console/transactions/model.ts'
import { GatewayError } from '../core/errors.ts'
import { adminContext, type Gate } from './context.ts'
import type { AdminDeps } from './deps.ts'
import { userExists, userSummary } from './directory.ts'

export function userRoutes(deps: AdminDeps, gate: Gate) {
  const known = async (id: string) => {
    if (!(await userExists(deps.db, id))) throw new GatewayError('NOT_FOUND', 'No such user.')
    return id
  }
  return new Elysia({ prefix: '/api/admin/users' })
    .use(adminContext(deps, gate))
    .get('/:id', async ({ params }) => {
      const user = await userSummary(deps.db, deps.store, params.id)
      if (!user) throw new GatewayError('NOT_FOUND', 'No such user.')
      return user
    })
    .get('/:id/transactions', async ({ params, query }) => listTransactions(deps, await known(params.id), query), {
      query: TransactionsQuery,
    })
    .get('/:id/logs', async ({ params, query }) => listLogs(deps, await known(params.id), query), { query: LogsQuery })
}
