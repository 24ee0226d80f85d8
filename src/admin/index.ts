// Admin API (README "Admin API"): Bearer $ADMIN_TOKEN; absent token → the routes 404. Routes
// here, logic in service.ts, request models in model.ts, reads in directory.ts.
import { Elysia } from 'elysia'
import { checkParams, consoleBody } from '../http/console-body.ts'
import { consoleError, consoleErrorHook } from '../http/console-error.ts'
import { strictBody } from '../http/strict-body.ts'
import { catalogView } from './catalog-view.ts'
import type { AdminDeps } from './deps.ts'
import { listUsers } from './directory.ts'
import { adminGate } from './gate.ts'
import { CreditAdjustment, KeyPatch, NewKey, NewUser, RefundRequest, UsersQuery } from './model.ts'
import {
  adjustCredits,
  changeKey,
  createAccount,
  createKey,
  refundTransaction,
  reloadCatalog,
  revokeKey,
  setUserDisabled,
  userKeys,
} from './service.ts'

export function adminRoutes(deps: AdminDeps) {
  const gate = adminGate(deps)
  return (
    new Elysia({ prefix: '/api/admin' })
      .onError(consoleErrorHook(deps.log))
      // The gate (gate.ts) comes before the body is read and before any validation: an
      // unauthenticated caller learns nothing, not even whether its body would have been valid.
      .onParse(async ({ request, contentType, server }) => {
        await gate(request, server)
        return consoleBody(request, contentType, deps.config.maxBodyBytes)
      })
      .onTransform(async ({ request, server, set, query, params }) => {
        Object.assign(set.headers, await gate(request, server))
        checkParams(query, params)
      })
      .post('/users', ({ body }) => createAccount(deps, body), strictBody(NewUser))
      .post(
        '/users/:id/credits',
        async ({ params, body, request, set }) => {
          const { balance, replayed } = await adjustCredits(deps, params.id, body, request.headers.get('idempotency-key'))
          if (replayed) set.headers['idempotent-replayed'] = 'true'
          return { balance }
        },
        strictBody(CreditAdjustment),
      )
      .post('/keys', ({ body }) => createKey(deps, body), strictBody(NewKey))
      .patch('/keys/:id', ({ params, body }) => changeKey(deps, params.id, body), strictBody(KeyPatch))
      .post('/refunds', ({ body }) => refundTransaction(deps, body), strictBody(RefundRequest))
      .get('/users', ({ query }) => listUsers(deps.db, { limit: query.limit ?? 100, cursor: query.cursor, email: query.email }), {
        query: UsersQuery,
      })
      .get('/users/:id/keys', ({ params }) => userKeys(deps, params.id))
      .post('/users/:id/:action', ({ params }) => {
        if (params.action !== 'disable' && params.action !== 'enable') return consoleError(404, 'NOT_FOUND', 'No such endpoint.')
        return setUserDisabled(deps, params.id, params.action === 'disable')
      })
      .post('/catalog/reload', () => reloadCatalog(deps))
      .get('/catalog', () => catalogView(deps.catalog.all()))
      .delete('/keys/:id', ({ params }) => revokeKey(deps, params.id))
  )
}
