// Switching a route off or on at run time (docs/operators.md "Models and gateways"): a row in
// route_switches, which every instance's catalog refresh reads, so the switch reaches them all
// within CATALOG refresh interval (this instance at once). A catalog reload clears every switch.
import { and, eq } from 'drizzle-orm'
import { GatewayError } from '../../core/errors.ts'
import type { Db } from '../../db/client.ts'
import { modelRoutes, routeSwitches } from '../../db/schema/index.ts'

export interface RouteRef {
  model: string
  gateway: string
  upstreamModel: string
}

async function routeExists(db: Db, r: RouteRef): Promise<boolean> {
  const [row] = await db
    .select({ modelId: modelRoutes.modelId })
    .from(modelRoutes)
    .where(and(eq(modelRoutes.modelId, r.model), eq(modelRoutes.gatewayId, r.gateway), eq(modelRoutes.upstreamModel, r.upstreamModel)))
  return row !== undefined
}

/** Whether the route was off before the change; NOT_FOUND for a route the catalog does not have. */
export async function switchRoute(db: Db, r: RouteRef, enabled: boolean, by: string): Promise<{ wasEnabled: boolean }> {
  if (!(await routeExists(db, r)))
    throw new GatewayError('NOT_FOUND', 'No such route: the catalog has no route of this model to this gateway and upstream model.')
  const match = and(
    eq(routeSwitches.modelId, r.model),
    eq(routeSwitches.gatewayId, r.gateway),
    eq(routeSwitches.upstreamModel, r.upstreamModel),
  )
  if (enabled) {
    const removed = await db.delete(routeSwitches).where(match).returning({ m: routeSwitches.modelId })
    return { wasEnabled: removed.length === 0 }
  }
  const added = await db
    .insert(routeSwitches)
    .values({ modelId: r.model, gatewayId: r.gateway, upstreamModel: r.upstreamModel, disabledBy: by })
    .onConflictDoNothing()
    .returning({ m: routeSwitches.modelId })
  return { wasEnabled: added.length > 0 }
}

export async function clearSwitches(db: Db): Promise<number> {
  return (await db.delete(routeSwitches).returning({ m: routeSwitches.modelId })).length
}
