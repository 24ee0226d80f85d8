// GET /api/wallet/transactions (keyset pages) and /api/wallet/transactions/:id (detail).
import { Elysia, t } from 'elysia'
import { type ContextDeps, consoleContext, sessionRequired } from '../http/context.ts'
import { SESSION_SECURITY } from '../http/models.ts'
import { TransactionDetail, TransactionList, TransactionsQuery } from './model.ts'
import { listTransactions, transactionDetail } from './service.ts'

const detail = (summary: string) => ({ tags: ['wallet'], summary, security: SESSION_SECURITY })

export function transactionsFeature(deps: ContextDeps) {
  return new Elysia({ prefix: '/api/wallet/transactions' })
    .use(sessionRequired(deps))
    .use(consoleContext(deps))
    .get('', ({ user, query }) => listTransactions(deps, user.id, query), {
      query: TransactionsQuery,
      response: { 200: TransactionList },
      detail: detail('Ledger entries, newest first; keyset pages; filters kind and status'),
    })
    .get('/:id', ({ user, params }) => transactionDetail(deps, user.id, params.id), {
      params: t.Object({ id: t.String({ maxLength: 100 }) }),
      response: { 200: TransactionDetail },
      detail: detail('One entry: usage shows model, tokens and request id; top-ups their provider events'),
    })
}
