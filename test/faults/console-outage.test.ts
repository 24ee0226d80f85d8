// docs/operations.md "Console and admin during an outage": while Postgres is blackholed
// (a TCP proxy swallows everything) or Redis is stopped, login, keys, wallet and admin calls
// answer 503 SERVICE_UNAVAILABLE in the console envelope with Retry-After: 1 within the
// configured timeouts (no 500, no hang); nothing changes in the books; once the service is back
// the same calls work again. (The embedded PGlite and in-process store have no outage.)
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { apiKeys } from '../../src/db/schema/index.ts'
import { browser, CONSOLE_ENV, signUp, type SignedIn } from '../console/helpers.ts'
import { ADMIN_TOKEN, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

import { startThrowawayRedis, type ThrowawayRedis } from '../helpers/redis-server.ts'
import { describeServices } from '../helpers/services.ts'
import { proxiedDatabase, type TcpProxy } from '../helpers/tcp-proxy.ts'
import { until } from '../helpers/until.ts'

const DB_TIMEOUT_MS = 500
const REDIS_TIMEOUT_MS = 400
/** What "quickly" allows on a loaded machine: the timeout plus scheduling slack, far below a hang. */
const FAST_MS = 3_000

const admin = (gw: TestGateway, method: string, path: string, body?: unknown) =>
  gw.request(path, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

/** Every call a console user and an operator make: [name, call, its status when served]. */
function calls(gw: TestGateway, user: SignedIn): [string, () => Promise<Response>, number][] {
  const email = () => `${crypto.randomUUID()}@test.local`
  return [
    ['login', () => browser(gw).post('/api/auth/login', { email: user.email, password: user.password }), 200],
    ['register', () => browser(gw).post('/api/auth/register', { email: email(), password: 'correct horse battery' }), 201],
    ['list keys', () => user.get('/api/keys'), 200],
    ['create key', () => user.post('/api/keys', { name: 'console key' }), 201],
    ['wallet', () => user.get('/api/wallet/account'), 200],
    ['admin credit', () => admin(gw, 'POST', `/api/admin/users/${user.id}/credits`, { amount: 5 }), 200],
    ['admin users', () => admin(gw, 'GET', '/api/admin/users'), 200],
    ['admin create key', () => admin(gw, 'POST', '/api/admin/keys', { userId: user.id, name: 'admin key' }), 200],
  ]
}

/** Each call answers 503 in the console envelope with Retry-After: 1, fast. */
async function expectAllUnavailable(gw: TestGateway, user: SignedIn) {
  for (const [name, call] of calls(gw, user)) {
    const t0 = performance.now()
    const res = await call()
    const ms = performance.now() - t0
    const body = await res.text()
    expect({ name, status: res.status, retryAfter: res.headers.get('retry-after') }).toEqual({ name, status: 503, retryAfter: '1' })
    expect(JSON.parse(body)).toEqual({
      error: { code: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable; retry shortly.' },
    })
    expect(body).not.toMatch(/ECONN|postgres|redis|timed out|127\.0\.0\.1/i) // no internals for the client
    expect(ms).toBeLessThan(FAST_MS)
  }
}

/** After recovery: every call is served again, and the books are exactly the credits made. */
async function expectServedAgain(gw: TestGateway, user: SignedIn, creditUsd: number) {
  await until(async () => (await calls(gw, user)[0]![1]()).status === 200, 'a console login after recovery')
  for (const [name, call, served] of calls(gw, user)) expect({ name, status: (await call()).status }).toEqual({ name, status: served })
  const micros = BigInt(creditUsd + 5) * 1_000_000n // the credits before the outage and the one after it
  expect(await gw.books(user.id)).toEqual({ balance: micros, ledgerSum: micros })
  const wallet = (await (await user.get('/api/wallet/account')).json()) as { balance: number; reserved: number }
  expect([wallet.balance, wallet.reserved]).toEqual([creditUsd + 5, 0])
  // Only the two keys created after recovery exist: the ones asked for during the outage were not
  // made.
  const keys = await gw.runtime.deps.db.select({ name: apiKeys.name }).from(apiKeys).where(eq(apiKeys.userId, user.id))
  expect(keys).toHaveLength(2)
}

async function creditedUser(gw: TestGateway, usd: number): Promise<SignedIn> {
  const user = await signUp(gw)
  expect((await admin(gw, 'POST', `/api/admin/users/${user.id}/credits`, { amount: usd })).status).toBe(200)
  expect((await user.get('/api/wallet/account')).status).toBe(200) // the session works, the account is mirrored
  return user
}

describeServices('console and admin while Postgres is blackholed', () => {
  let gw: TestGateway
  let proxy: TcpProxy
  let dropDb = async () => {}
  beforeAll(async () => {
    const db = await proxiedDatabase()
    dropDb = db.drop
    proxy = db.proxy
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      ...CONSOLE_ENV,
      DATABASE_URL: db.url,
      DB_REQUEST_TIMEOUT_MS: String(DB_TIMEOUT_MS),
    })
  }, 30_000)
  afterAll(async () => {
    proxy.restore()
    await gw.stop() // postgres.js on Bun waits out end()'s 5 s timeout once a connection was reset
    proxy.stop()
    await dropDb()
  }, 30_000)

  test('login, keys, wallet and admin answer 503 + Retry-After within the timeout; books unchanged; served again after', async () => {
    const user = await creditedUser(gw, 7)
    proxy.blackhole()
    try {
      await expectAllUnavailable(gw, user)
      const ready = await gw.request('/readyz')
      expect([ready.status, ((await ready.json()) as { database: boolean }).database]).toEqual([503, false])
    } finally {
      proxy.restore()
    }
    await expectServedAgain(gw, user, 7)
  }, 90_000)
})

describeServices('console and admin while Redis is stopped', () => {
  let redis: ThrowawayRedis
  let gw: TestGateway
  beforeAll(async () => {
    redis = await startThrowawayRedis(6393, { aof: true })
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      ...CONSOLE_ENV,
      REDIS_URL: redis.url,
      REDIS_COMMAND_TIMEOUT_MS: String(REDIS_TIMEOUT_MS),
    })
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    await redis.stop()
  })

  for (const how of ['killed', 'paused'] as const)
    test(`${how}: login, keys, wallet and admin answer 503 + Retry-After at once; books unchanged; served again after`, async () => {
      const user = await creditedUser(gw, 3)
      if (how === 'killed') await redis.kill()
      else redis.signal('SIGSTOP')
      try {
        await expectAllUnavailable(gw, user)
      } finally {
        if (how === 'killed') await redis.start(true)
        else redis.signal('SIGCONT')
      }
      await expectServedAgain(gw, user, 3)
    }, 90_000)
})
