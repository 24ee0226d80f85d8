// docs/operations.md "Postgres unreachable": outages degrade cleanly (a TCP proxy in front of it is
// blackholed, or cut): warm keys and accounts keep being served (expired key-cache entries are
// served stale, the catalog and the account mirror live in memory and Redis), a key or account
// never loaded gets a fast 503 with Retry-After, and when Postgres returns the outbox backlog
// drains with the books exact. (The embedded PGlite runs in-process: it has no outage.)
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { completionWithUsage, expectChatError, postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { bearer, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectExactBooks, reservedNow, untilLogged } from '../helpers/money.ts'
import { describeServices } from '../helpers/services.ts'
import { proxiedDatabase, type TcpProxy } from '../helpers/tcp-proxy.ts'

const COST = 61n // 5 prompt + 100 completion tokens at 0.15 / 0.6 USD per 1M
const CREDIT = 1_000_000n
const KEY_TTL_MS = 200

describeServices('Postgres unreachable (postgres behind a TCP proxy + redis)', () => {
  let up: FakeUpstream
  let gw: TestGateway
  let proxy: TcpProxy
  let dropDb = async () => {}
  beforeAll(async () => {
    const db = await proxiedDatabase()
    dropDb = db.drop
    proxy = db.proxy
    up = startFakeUpstream({ kind: 'json', body: completionWithUsage(5, 100) })
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, simpleCatalog([{ id: 'gw-a', url: up.url }]), {
      DATABASE_URL: db.url,
      KEY_CACHE_TTL_MS: String(KEY_TTL_MS),
      DB_REQUEST_TIMEOUT_MS: '500',
    })
  }, 30_000)
  afterAll(async () => {
    proxy.restore()
    // postgres.js on Bun waits out end()'s 5 s timeout once a connection was reset: slow, not
    // stuck.
    await gw.stop()
    up.stop()
    proxy.stop()
    await dropDb()
  }, 30_000)

  for (const fault of ['blackhole', 'cut'] as const) {
    test(`${fault}: warm keys served stale, cold ones 503 + Retry-After; the backlog drains exactly on return`, async () => {
      const warm = await gw.user(1)
      const coldKey = await gw.user(1)
      const coldAccount = await gw.user(1)
      const first = await postChat(gw, warm.key)
      expect(first.status).toBe(200)
      expect((await postChat(gw, coldAccount.key)).status).toBe(200)
      await gw.settled()
      await gw.runtime.deps.store.forgetAccount(coldAccount.userId) // key cached, account not mirrored
      const staleBefore = gw.runtime.deps.auth.staleServed
      const billed = [{ requestId: first.headers.get('x-request-id')!, cost: COST }]

      proxy[fault]()
      await Bun.sleep(KEY_TTL_MS + 50) // let the key-cache entries expire
      for (let i = 0; i < 3; i++) {
        const res = await postChat(gw, warm.key)
        expect(res.status).toBe(200)
        billed.push({ requestId: res.headers.get('x-request-id')!, cost: COST })
      }
      expect(gw.runtime.deps.auth.staleServed).toBeGreaterThan(staleBefore)
      const coldModels = await gw.request('/v1/models', { headers: bearer(coldKey.key) })
      expect(coldModels.status).toBe(503)
      expect(coldModels.headers.get('retry-after')).toBe('1')
      const models = await gw.request('/v1/models', { headers: bearer(warm.key) })
      expect(models.status).toBe(200)
      expect(JSON.stringify(await models.json())).toContain('acme/chat-1')
      for (const user of [coldKey, coldAccount]) {
        const res = await postChat(gw, user.key)
        expect(res.headers.get('retry-after')).toBe('1')
        await expectChatError(res, 503, 'SERVICE_UNAVAILABLE')
      }

      proxy.restore()
      await untilLogged(
        gw,
        billed.map((b) => b.requestId),
      ) // the running writer drains the backlog itself
      expect(gw.runtime.writer.counters.failedBatches).toBeGreaterThan(0)
      expect(gw.runtime.writer.counters.deadLettered).toBe(0) // an outage is not a bad record
      await gw.settled()
      await expectExactBooks(gw, warm.userId, CREDIT, billed)
      expect(await reservedNow(gw, warm.userId)).toBe(0n)
      expect(await gw.books(coldKey.userId)).toEqual({ balance: CREDIT, ledgerSum: CREDIT })
      for (const user of [coldKey, coldAccount]) expect((await postChat(gw, user.key)).status).toBe(200)
    }, 90_000)
  }
})
