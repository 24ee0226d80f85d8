// Admin API (docs/operators.md; README "Admin API"): Bearer $ADMIN_TOKEN or an admin's console
// session (gate.ts); with neither configured nor sent, the routes 404. Each feature is its own
// instance over the shared context (context.ts): users and keys here, reports, gateways and the
// ledger's health in their files. Every change is audited (changes.ts).
import { Elysia } from 'elysia'
import { consoleError } from '../http/console-error.ts'
import { strictBody } from '../http/strict-body.ts'
import { listAudit } from './audit.ts'
import {
  auditedChangeKey,
  auditedCreateKey,
  auditedCreateUser,
  auditedCredit,
  auditedDisable,
  auditedRefund,
  auditedReload,
  auditedRevoke,
  auditedRole,
} from './changes.ts'
import { catalogView } from './catalog-view.ts'
import { adminContext, type Gate } from './context.ts'
import type { AdminDeps } from './deps.ts'
import { listUsers } from './directory.ts'
import { adminGate } from './gate.ts'
import { gatewayRoutes } from './gateways/index.ts'
import { ledgerRoutes } from './ledger/index.ts'
import { AuditQuery, CreditAdjustment, KeyPatch, NewKey, NewUser, RefundRequest, RoleChange, UsersQuery } from './model.ts'
import { reportRoutes } from './reports/index.ts'
import { userKeys } from './service.ts'
import { userRoutes } from './users.ts'

export function adminRoutes(deps: AdminDeps) {
  const gate = adminGate(deps)
  return new Elysia()
    .use(accountRoutes(deps, gate))
    .use(userRoutes(deps, gate))
    .use(reportRoutes(deps, gate))
    .use(gatewayRoutes(deps, gate))
    .use(ledgerRoutes(deps, gate))
}

function accountRoutes(deps: AdminDeps, gate: Gate) {
  return new Elysia({ prefix: '/api/admin' })
    .use(adminContext(deps, gate))
    .post('/users', ({ body, actor }) => auditedCreateUser(deps, actor, body), strictBody(NewUser))
    .post(
      '/users/:id/credits',
      async ({ params, body, request, set, actor }) => {
        const { balance, replayed } = await auditedCredit(deps, actor, params.id, body, request.headers.get('idempotency-key'))
        if (replayed) set.headers['idempotent-replayed'] = 'true'
        return { balance }
      },
      strictBody(CreditAdjustment),
    )
    .post('/users/:id/role', ({ params, body, actor }) => auditedRole(deps, actor, params.id, body.role), strictBody(RoleChange))
    .post('/keys', ({ body, actor }) => auditedCreateKey(deps, actor, body), strictBody(NewKey))
    .patch('/keys/:id', ({ params, body, actor }) => auditedChangeKey(deps, actor, params.id, body), strictBody(KeyPatch))
    .post('/refunds', ({ body, actor }) => auditedRefund(deps, actor, body), strictBody(RefundRequest))
    .get('/users', ({ query }) => listUsers(deps.db, { limit: query.limit ?? 100, cursor: query.cursor, email: query.email }), {
      query: UsersQuery,
    })
    .get('/users/:id/keys', ({ params }) => userKeys(deps, params.id))
    .post('/users/:id/:action', ({ params, actor }) => {
      if (params.action !== 'disable' && params.action !== 'enable') return consoleError(404, 'NOT_FOUND', 'No such endpoint.')
      return auditedDisable(deps, actor, params.id, params.action === 'disable')
    })
    .post('/catalog/reload', ({ actor }) => auditedReload(deps, actor))
    .get('/catalog', () => catalogView(deps.catalog.all()))
    .delete('/keys/:id', ({ params, actor }) => auditedRevoke(deps, actor, params.id))
    .get('/audit', ({ query }) => listAudit(deps.db, { limit: query.limit ?? 50, cursor: query.cursor, target: query.target }), {
      query: AuditQuery,
    })
}
