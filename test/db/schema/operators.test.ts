// admin_audit, route_switches, request_daily and latency_daily as migrated: audit entries keep
// their before/after JSON; one switch per route; the daily rollups keyed by their dimensions
// so the ledger writer's upsert adds to one row.
import { expect, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { adminAudit, latencyDaily, requestDaily, routeSwitches } from '../../../src/db/schema/operators.ts'
import { describeServices } from '../../helpers/services.ts'
import { migratedDatabase, sqlState, uid, UNIQUE_VIOLATION } from './migrated.ts'

describeServices('schema: operators', () => {
  const h = migratedDatabase()

  test('an audit entry keeps who, what and the before/after as JSON', async () => {
    const id = uid('aud')
    await h.db
      .insert(adminAudit)
      .values({ id, actor: 'token', action: 'user.credit', target: 'usr_1', before: { balance: '0' }, after: { balance: '5' } })
    const [row] = await h.db.select().from(adminAudit).where(eq(adminAudit.id, id))
    expect(row).toMatchObject({
      actor: 'token',
      actorEmail: null,
      action: 'user.credit',
      before: { balance: '0' },
      after: { balance: '5' },
      note: null,
    })
    expect(row!.at).toBeInstanceOf(Date)
  })

  test('a route is switched off once', async () => {
    const r = { modelId: uid('m'), gatewayId: 'gw', upstreamModel: 'up', disabledBy: 'usr_admin' }
    await h.db.insert(routeSwitches).values(r)
    expect(await sqlState(h.db.insert(routeSwitches).values(r))).toBe(UNIQUE_VIOLATION)
    await h.db.insert(routeSwitches).values({ ...r, upstreamModel: 'other' })
    expect(await h.db.select().from(routeSwitches).where(eq(routeSwitches.modelId, r.modelId))).toHaveLength(2)
  })

  test('request_daily: one row per day, user, model and gateway; an upsert adds to it', async () => {
    const key = { day: '2030-05-06', userId: uid('usr'), model: 'm', gateway: 'gw' }
    const add = (calls: bigint, cost: bigint) =>
      h.db
        .insert(requestDaily)
        .values({
          ...key,
          calls,
          errors: 0n,
          costMicros: cost,
          inputTokens: 1n,
          outputTokens: 2n,
          cacheReadTokens: 0n,
          cacheWriteTokens: 0n,
        })
        .onConflictDoUpdate({
          target: [requestDaily.day, requestDaily.userId, requestDaily.model, requestDaily.gateway],
          set: { calls: sql`${requestDaily.calls} + excluded.calls`, costMicros: sql`${requestDaily.costMicros} + excluded.cost_micros` },
        })
    await add(2n, 100n)
    await add(3n, 9_007_199_254_740_993n)
    const rows = await h.db
      .select()
      .from(requestDaily)
      .where(and(eq(requestDaily.userId, key.userId), eq(requestDaily.day, key.day)))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ calls: 5n, costMicros: 9_007_199_254_741_093n, day: '2030-05-06' })
  })

  test('latency_daily: one row per day, model and bucket', async () => {
    const r = { day: '2030-05-06', model: uid('m'), bucket: 7, calls: 3n }
    await h.db.insert(latencyDaily).values(r)
    expect(await sqlState(h.db.insert(latencyDaily).values(r))).toBe(UNIQUE_VIOLATION)
    await h.db.insert(latencyDaily).values({ ...r, bucket: 8 })
    expect(await h.db.select().from(latencyDaily).where(eq(latencyDaily.model, r.model))).toHaveLength(2)
  })
})
