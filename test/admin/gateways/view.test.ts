// The operator's gateways view and run-time route switches (docs/operators.md "Models and
// gateways"): a failing route shows its breaker open with traffic and errors; switching a route
// off takes it out of routing on every instance, audited; a catalog reload switches it on again;
// a stream under way counts in flight on its route; a cooling route says how long it rests.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rm } from 'node:fs/promises'
import { isNotNull } from 'drizzle-orm'
import { requestLogs } from '../../../src/db/schema/index.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, bearer, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { longStream } from '../../helpers/long-streams.ts'
import { until } from '../../helpers/until.ts'
import { postChat } from '../../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../../helpers/fake-upstream.ts'
import { fixtureJson } from '../../helpers/fixtures.ts'
import { failingRouteCatalog } from '../../helpers/failover.ts'

const token = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }
const GOOD_ROUTE = { model: 'acme/chat-1', gateway: 'gw-good', upstreamModel: 'up-good' }

const catalogOf = (bad: FakeUpstream, good: FakeUpstream) =>
  failingRouteCatalog(bad, good, { contextWindow: 10_000, pricing: { input: 1, output: 2 }, goodCost: { input: 0.5, output: 1 } })

for (const backends of ALL_BACKENDS) {
  describe(`admin gateways on ${backends.db}+${backends.store}`, () => {
    let bad: FakeUpstream
    let good: FakeUpstream
    let gw: TestGateway
    const catalogPath = `/tmp/tollgate-gateways-${process.pid}-${backends.db}.json`
    beforeAll(async () => {
      bad = startFakeUpstream({ kind: 'status', status: 500, body: { error: { message: 'boom' } } })
      good = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      await Bun.write(catalogPath, JSON.stringify(catalogOf(bad, good)))
      gw = await startTestGateway(backends, catalogOf(bad, good), { CATALOG_FILE: catalogPath })
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      bad.stop()
      good.stop()
      await rm(catalogPath, { force: true })
    }, 30_000)

    const send = async (method: string, path: string, body?: unknown) => {
      const res = await gw.request(path, { method, headers: token, body: body === undefined ? undefined : JSON.stringify(body) })
      return { status: res.status, body: (await res.json()) as any }
    }
    const view = async () => (await send('GET', '/api/admin/gateways')).body
    const route = (v: any, gateway: string) => v.items.find((g: any) => g.id === gateway).routes[0]

    test('a failing route shows its breaker open, with its cost prices; the answering gateway its traffic', async () => {
      const u = await gw.user(1)
      for (let i = 0; i < 2; i++) expect((await postChat(gw, u.key, { model: 'acme/chat-1' })).status).toBe(200)
      await gw.settled()
      const v = await view()
      const badGw = v.items.find((g: any) => g.id === 'gw-bad')
      // An error answer about one model shows the gateway itself is reachable: only the route opens.
      expect(badGw.breaker).toBe('closed')
      expect(v.items.map((g: any) => g.auth)).toEqual(v.items.map(() => 'api-key'))
      expect(route(v, 'gw-bad')).toMatchObject({ model: 'acme/chat-1', upstreamModel: 'up-bad', breaker: 'open', enabled: true })
      expect(route(v, 'gw-bad').nextProbeInMs).toBeGreaterThan(0)
      expect(route(v, 'gw-good')).toMatchObject({ breaker: 'closed', cost: { input: 0.5, output: 1, cacheRead: null, cacheWrite: null } })
      expect(route(v, 'gw-good').last5m).toEqual({ calls: 2, errors: 0, errorRate: 0, p50Ms: route(v, 'gw-good').last5m.p50Ms })
      expect(route(v, 'gw-good').last60m.calls).toBe(2)
      expect(typeof v.inFlight).toBe('number')
    })

    test('a route that always fails counts each attempt as an error; the call log names each route tried and why it was left', async () => {
      const { db } = gw.runtime.deps
      const rows = await db.select().from(requestLogs).where(isNotNull(requestLogs.attempts))
      // The first calls tried gw-bad (500) before gw-good answered; later ones skipped its open breaker.
      expect(rows.length).toBeGreaterThan(0)
      const tried = rows.flatMap((r) => r.attempts!)
      for (const r of rows) {
        expect(r.status).toBe(200)
        expect(r.fault).toBeNull()
        expect(r.attempts!.at(-1)).toMatchObject({ gateway: 'gw-good', model: 'acme/chat-1', upstreamModel: 'up-good', outcome: 'ok' })
      }
      const failed = tried.filter((a) => a.gateway === 'gw-bad')
      expect(failed.length).toBeGreaterThan(0)
      for (const a of failed)
        expect(a).toMatchObject({
          model: 'acme/chat-1',
          upstreamModel: 'up-bad',
          outcome: 'UPSTREAM_ERROR',
          status: 500,
          failure: 'status',
        })
      const v = await view()
      expect(route(v, 'gw-bad').last5m).toMatchObject({ calls: failed.length, errors: failed.length, errorRate: 1 })
      expect(v.items.find((g: any) => g.id === 'gw-bad').last60m).toMatchObject({ calls: failed.length, errors: failed.length })
      expect(route(v, 'gw-good').last5m).toMatchObject({ calls: 2, errors: 0 })
      // The same attempts in the metrics, per route.
      const metrics = await (await gw.request('/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text()
      const line = metrics.split('\n').find((l) => l.startsWith('tollgate_upstream_attempts_total{') && l.includes('gateway="gw-bad"'))
      expect(line).toContain('model="acme/chat-1"')
      expect(line).toContain('outcome="UPSTREAM_ERROR"')
      expect(Number(line!.split(' ').at(-1))).toBeGreaterThanOrEqual(failed.length)
    })

    test('a stream under way counts in flight on its route until it ends', async () => {
      const u = await gw.user(1)
      good.script({ kind: 'stall', text: longStream('openai-chat').head })
      const client = new AbortController()
      const body = JSON.stringify({ model: 'acme/chat-1', stream: true, messages: [{ role: 'user', content: 'hi' }] })
      const res = await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(u.key), body, signal: client.signal })
      const reader = res.body!.getReader()
      await reader.read()
      expect(route(await view(), 'gw-good').inFlight).toBe(1)
      await reader.cancel()
      client.abort()
      await until(async () => route(await view(), 'gw-good').inFlight === 0, 'the stream to end')
    })

    test('a route switched off leaves routing on every instance, audited; enable and a reload switch it on again', async () => {
      const u = await gw.user(1)
      const off = await send('POST', '/api/admin/routes/disable', GOOD_ROUTE)
      expect(off).toEqual({ status: 200, body: { ...GOOD_ROUTE, enabled: false } })
      expect(route(await view(), 'gw-good')).toMatchObject({ enabled: false, disabledBy: 'token' })
      // gw-bad's breaker is open and gw-good is off: nothing is left to serve the model.
      expect((await postChat(gw, u.key, { model: 'acme/chat-1' })).status).toBe(503)
      if (backends.db === 'postgres') {
        const peer = await gw.peer()
        await peer.runtime.deps.catalog.refresh()
        const found = peer.runtime.deps.catalog.lookup('acme/chat-1')
        expect(found.ok && found.model.routes.map((r) => r.gateway.id)).toEqual(['gw-bad'])
      }
      const [audit] = (await send('GET', '/api/admin/audit?limit=1')).body.items
      expect(audit).toMatchObject({ action: 'route.disable', before: { enabled: true }, after: { enabled: false } })
      expect((await send('POST', '/api/admin/routes/enable', GOOD_ROUTE)).body.enabled).toBe(true)
      expect((await postChat(gw, u.key, { model: 'acme/chat-1' })).status).toBe(200)
      await send('POST', '/api/admin/routes/disable', GOOD_ROUTE)
      expect((await send('POST', '/api/admin/catalog/reload')).status).toBe(200)
      expect(route(await view(), 'gw-good').enabled).toBe(true)
      expect((await postChat(gw, u.key, { model: 'acme/chat-1' })).status).toBe(200)
    })

    test('an unknown route is 404, a misspelt member 422; nothing is switched', async () => {
      expect((await send('POST', '/api/admin/routes/disable', { ...GOOD_ROUTE, upstreamModel: 'nope' })).status).toBe(404)
      const typo = await send('POST', '/api/admin/routes/disable', { ...GOOD_ROUTE, gatway: 'gw-good' })
      expect(typo.status).toBe(422)
      expect(route(await view(), 'gw-good').enabled).toBe(true)
    })

    // Last: the route stays cooling for the rest of this instance's life.
    test('a route cooling after a long 429 shows how long it still rests; the others show 0', async () => {
      const found = gw.runtime.deps.catalog.lookup('acme/chat-1')
      if (!found.ok) throw new Error('acme/chat-1 not in the catalog')
      const good = found.model.routes.find((r) => r.gateway.id === 'gw-good')!
      gw.runtime.deps.router.cooling.cool(good, 60_000, 'req_cool')
      const v = await view()
      expect(route(v, 'gw-good').coolingMs).toBeGreaterThan(50_000)
      expect(route(v, 'gw-bad').coolingMs).toBe(0)
    })
  })
}
