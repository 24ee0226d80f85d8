// Recent traffic per gateway and route (docs/operators.md "Models and gateways"): calls, errors
// (by the call's fault — the upstream's or Tollgate's, as the writer records it; a client's 4xx
// has none), error rate and median
// latency over the last 5 and 60 minutes; calls without a gateway and older calls stay out.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { recentTraffic } from '../../../src/admin/gateways/traffic.ts'
import { requestLogs } from '../../../src/db/schema/index.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0)
const MIN = 60_000
let seq = 0

const log = (gateway: string | null, model: string, agoMs: number, status: number, latencyMs: number) => ({
  id: `req_${++seq}`,
  userId: 'usr_1',
  keyId: 'key_1',
  model,
  gateway,
  protocol: 'chat',
  stream: false,
  status,
  // The fault the writer records with each call: a 5xx here is the upstream's, a 4xx the client's.
  fault: status >= 500 ? ('upstream' as const) : null,
  usageSource: 'upstream',
  latencyMs,
  createdAt: new Date(NOW - agoMs),
})

describe('recentTraffic on embedded Postgres', () => {
  let m: MemoryDb
  beforeAll(async () => {
    m = await memoryDb()
    await m.db.insert(requestLogs).values([
      // gw-a, model x: two recent (one 502), one 30 minutes ago (a 429: not an error).
      log('gw-a', 'acme/x', 1 * MIN, 200, 100),
      log('gw-a', 'acme/x', 2 * MIN, 502, 300),
      log('gw-a', 'acme/x', 30 * MIN, 429, 50),
      // gw-a, model y: one 40 minutes ago.
      log('gw-a', 'acme/y', 40 * MIN, 500, 1000),
      // Out of the window, in the future, or without a gateway: not counted.
      log('gw-a', 'acme/x', 61 * MIN, 500, 9),
      log('gw-a', 'acme/x', -MIN, 500, 9),
      log(null, 'acme/x', MIN, 503, 9),
    ])
  }, 30_000)
  afterAll(() => m.close())

  test('one row per gateway and one per gateway and model, with 5- and 60-minute windows', async () => {
    const rows = await recentTraffic(m.db, NOW)
    const find = (model: string | null) => rows.find((r) => r.gateway === 'gw-a' && r.model === model)
    expect(rows).toHaveLength(3)
    expect(find(null)).toEqual({
      gateway: 'gw-a',
      model: null,
      last5m: { calls: 2, errors: 1, errorRate: 0.5, p50Ms: 200 },
      last60m: { calls: 4, errors: 2, errorRate: 0.5, p50Ms: 200 },
    })
    expect(find('acme/x')).toEqual({
      gateway: 'gw-a',
      model: 'acme/x',
      last5m: { calls: 2, errors: 1, errorRate: 0.5, p50Ms: 200 },
      last60m: { calls: 3, errors: 1, errorRate: 0.3333, p50Ms: 100 },
    })
    // No call in the last 5 minutes: no rate and no median rather than zeros.
    expect(find('acme/y')).toEqual({
      gateway: 'gw-a',
      model: 'acme/y',
      last5m: { calls: 0, errors: 0, errorRate: null, p50Ms: null },
      last60m: { calls: 1, errors: 1, errorRate: 1, p50Ms: 1000 },
    })
  })

  test('an hour without calls is an empty list', async () => {
    expect(await recentTraffic(m.db, NOW + 3 * 3_600_000)).toEqual([])
  })

  test('attempts: a failed one is an error on its route; one the caller’s end stopped is not', async () => {
    const attempt = (gateway: string, outcome: string, ms: number) => ({ gateway, model: 'acme/z', upstreamModel: 'up', outcome, ms })
    const at = NOW + 5 * 3_600_000
    await m.db.insert(requestLogs).values([
      // gw-b failed (500) and gw-c answered.
      {
        ...log('gw-c', 'acme/z', at - MIN, 200, 40),
        createdAt: new Date(at - MIN),
        attempts: [attempt('gw-b', 'UPSTREAM_ERROR', 30), attempt('gw-c', 'ok', 10)],
      },
      // The client left while gw-b was trying; then a drain stopped an attempt on gw-c.
      { ...log(null, 'acme/z', at - MIN, 499, 20), createdAt: new Date(at - MIN), attempts: [attempt('gw-b', 'CLIENT_CLOSED', 20)] },
      {
        ...log(null, 'acme/z', at - MIN, 503, 20),
        createdAt: new Date(at - MIN),
        fault: null,
        attempts: [attempt('gw-c', 'SHUTTING_DOWN', 5)],
      },
    ])
    const rows = await recentTraffic(m.db, at)
    const errors = (gateway: string) => rows.find((r) => r.gateway === gateway && r.model === 'acme/z')!.last5m
    expect([errors('gw-b').calls, errors('gw-b').errors]).toEqual([2, 1])
    expect([errors('gw-c').calls, errors('gw-c').errors]).toEqual([2, 0])
  })
})
