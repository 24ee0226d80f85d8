// The operator's models and gateways (docs/operators.md "Models and gateways"): health per gateway
// and route, and switching a route off or on at run time (audited).
import { Elysia, t } from 'elysia'
import { GatewayError } from '../../core/errors.ts'
import { strictBody } from '../../http/strict-body.ts'
import { recordAudit } from '../audit.ts'
import { adminContext, type Gate } from '../context.ts'
import type { AdminDeps } from '../deps.ts'
import { switchRoute } from './switches.ts'
import { gatewaysView } from './view.ts'

const RouteRef = t.Object({
  model: t.String({ minLength: 1, maxLength: 200 }),
  gateway: t.String({ minLength: 1, maxLength: 200 }),
  upstreamModel: t.String({ minLength: 1, maxLength: 200 }),
})

export function gatewayRoutes(deps: AdminDeps, gate: Gate) {
  return new Elysia({ prefix: '/api/admin' })
    .use(adminContext(deps, gate))
    .get('/gateways', () =>
      gatewaysView({
        db: deps.db,
        breakers: deps.router.breakers,
        cooling: deps.router.cooling,
        load: deps.router.load,
        inFlight: deps.inflight.calls,
        now: deps.now(),
      }),
    )
    .post(
      '/routes/:action',
      async ({ params, body, actor }) => {
        if (params.action !== 'disable' && params.action !== 'enable') throw new GatewayError('NOT_FOUND', 'No such endpoint.')
        const enabled = params.action === 'enable'
        const { wasEnabled } = await switchRoute(deps.db, body, enabled, actor.kind === 'user' ? actor.email : actor.kind)
        await deps.catalog.refresh()
        await recordAudit(deps.db, actor, {
          action: enabled ? 'route.enable' : 'route.disable',
          target: `${body.model}@${body.gateway}/${body.upstreamModel}`,
          before: { enabled: wasEnabled },
          after: { enabled },
        })
        return { ...body, enabled }
      },
      strictBody(RouteRef),
    )
}
