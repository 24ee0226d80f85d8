// Health endpoints: /healthz says the process is up; /readyz says whether the database and the
// store answer (503 when either does not, or while draining), so a load balancer can act on it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createApp } from '../src/app.ts'
import type { AppDeps } from '../src/app.ts'
import { ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from './helpers/gateway.ts'

/** `obj` with one method replaced (the original keeps its prototype and state). */
const withMethod = <T extends object>(obj: T, name: string, fn: (...args: any[]) => unknown): T =>
  Object.create(obj, { [name]: { value: fn } })
const failing = () => Promise.reject(new Error('down'))

for (const backends of ALL_BACKENDS) {
  describe(`health on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    /** The Redis store's extra detail: whether Redis keeps an append-only file (test/store/append-only.test.ts). */
    let aof: { redisAof?: boolean | null } = {}
    beforeAll(async () => {
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]))
      if (backends.store === 'redis') aof = { redisAof: (await gw.runtime.deps.store.appendOnly()) ?? null }
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
    })

    const ready = (deps: AppDeps, draining = false) => createApp(deps, { draining }).handle(new Request('http://tollgate.test/readyz'))

    test('GET /healthz → 200 {status: ok}, no key needed', async () => {
      const res = await gw.request('/healthz')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: 'ok' })
      expect(res.headers.get('x-request-id')).toMatch(/^req_/)
    })

    test('GET /readyz → 200 with database and store true', async () => {
      const res = await gw.request('/readyz')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: 'ready', database: true, store: true, ...aof })
      expect(res.headers.get('x-request-id')).toMatch(/^req_/)
    })

    test('GET /readyz → 503 naming what is down: the database, the store, or both', async () => {
      const deps = gw.runtime.deps
      const noDb = { ...deps, db: withMethod(deps.db, 'execute', failing) }
      const noStore = { ...deps, store: withMethod(deps.store, 'ping', failing) }
      const neither = { ...noDb, store: noStore.store }
      for (const [d, database, store] of [
        [noDb, false, true],
        [noStore, true, false],
        [neither, false, false],
      ] as const) {
        const res = await ready(d)
        expect(res.status).toBe(503)
        // A store that does not answer cannot say whether it keeps an append-only file.
        const detail = backends.store === 'redis' ? { redisAof: store ? aof.redisAof : null } : {}
        expect(await res.json()).toEqual({ status: 'unavailable', database, store, ...detail })
      }
      // The real instance is unaffected.
      expect((await gw.request('/readyz')).status).toBe(200)
    })

    test('GET /readyz → 503 draining while the instance shuts down; /healthz stays 200', async () => {
      const res = await ready(gw.runtime.deps, true)
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({ status: 'draining', database: true, store: true, ...aof })
      const health = await createApp(gw.runtime.deps, { draining: true }).handle(new Request('http://tollgate.test/healthz'))
      expect(health.status).toBe(200)
    })

    test('an unknown path → 404 NOT_FOUND with an x-request-id', async () => {
      const res = await gw.request('/nope')
      expect(res.status).toBe(404)
      expect(((await res.json()) as any).error.code).toBe('NOT_FOUND')
      expect(res.headers.get('x-request-id')).toMatch(/^req_/)
    })
  })
}
