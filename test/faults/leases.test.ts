// Fault: an instance SIGKILLed with 20 open streams (docs/drain.md "Reservations are leases"). Its
// reservations are leases: once their deadline passes, the surviving instance's sweep releases
// them, records each call as ABANDONED billed its prompt estimate (docs/drain.md), and the user is
// no longer blocked. Real processes on real Postgres and Redis.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { completionWithUsage, readUntilClosed } from '../helpers/chat.ts'
import {
  booksOf,
  chatRequest,
  fundedUser,
  reservedIn,
  spawnGateway,
  writeCatalog,
  type GatewayProcess,
} from '../helpers/process-gateway.ts'
import { freshDatabase, freshKeyPrefix, REDIS_URL, describeServices } from '../helpers/services.ts'
import { finiteTicking, tickingStream } from './upstreams.ts'
import { ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { reservedOf } from '../helpers/chat.ts'
import { requestLogs } from '../../src/db/schema/index.ts'
import { eq } from 'drizzle-orm'
import { until } from '../helpers/until.ts'

const GATEWAY_TIMEOUT_MS = 2_000
const CLIENT_IDLE_MS = 1_000

describeServices('fault: an instance SIGKILLed with 20 open streams', () => {
  let up: FakeUpstream
  let db: Awaited<ReturnType<typeof freshDatabase>>
  let keys: ReturnType<typeof freshKeyPrefix>
  let a: GatewayProcess
  let b: GatewayProcess
  beforeAll(async () => {
    up = startFakeUpstream(tickingStream(100))
    db = await freshDatabase()
    keys = freshKeyPrefix()
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL,
      REDIS_PREFIX: keys.prefix,
      CATALOG_FILE: await writeCatalog(up.url, GATEWAY_TIMEOUT_MS),
      CLIENT_IDLE_TIMEOUT_MS: String(CLIENT_IDLE_MS),
    }
    a = await spawnGateway(env)
    b = await spawnGateway(env)
  }, 60_000)
  afterAll(async () => {
    a?.proc.kill('SIGKILL')
    b?.proc.kill('SIGKILL')
    await Promise.all([a?.proc.exited, b?.proc.exited])
    up.stop()
    await keys.clear()
    await db.drop()
  })

  test('the leases expire: reservations return to 0, every stream is logged ABANDONED and billed its prompt estimate once, the user can call again', async () => {
    // 20 reservations of about 8,200 µUSD run at once when the credit covers the 20th and, twice
    // over, the 19 before it (docs/operations.md "Overdraft"); the 21st is short.
    const credit = 330_000n
    const user = await fundedUser(a.url, Number(credit) / 1e6)
    const streams = await Promise.all(Array.from({ length: 20 }, () => chatRequest(a.url, user.key, true)))
    const ids = streams.map((r) => r.headers.get('x-request-id')!)
    expect(streams.map((r) => r.status)).toEqual(Array(20).fill(200))
    const readers = streams.map((r) => r.body!.getReader())
    const firsts: string[] = []
    for (const r of readers) firsts.push(new TextDecoder().decode((await r.read()).value))
    const held = await reservedIn(REDIS_URL, keys.prefix, user.userId)
    // 20 × (prompt estimate + 4,096 default output tokens × 2 µUSD): nearly the whole credit.
    expect(held).toBeGreaterThan(160_000n)
    const blocked = await chatRequest(b.url, user.key, false)
    expect(blocked.status).toBe(402)

    a.proc.kill('SIGKILL')
    const killedAt = Date.now()
    expect(await a.proc.exited).not.toBe(0)
    // What the clients saw: the connection ended without the stream's terminal frames.
    const received = await Promise.all(readers.map(async (r, i) => firsts[i] + (await readUntilClosed(r))))
    for (const text of received) {
      expect(text).toContain('Hel')
      expect(text).not.toContain('[DONE]')
      expect(text).not.toContain('"svc"')
    }

    await until(async () => (await reservedIn(REDIS_URL, keys.prefix, user.userId)) === 0n, 'the leases to be released', 60_000)
    const releasedAfterMs = Date.now() - killedAt
    await until(
      async () => (await booksOf(db.url, user.userId)).logs.filter((l) => ids.includes(l.id)).length === 20,
      'the abandoned logs',
      30_000,
    )
    const books = await booksOf(db.url, user.userId)
    const abandoned = books.logs.filter((l) => ids.includes(l.id))
    expect(abandoned.map((l) => [l.status, l.errorCode])).toEqual(Array(20).fill([500, 'ABANDONED']))
    // Billed its prompt estimate: more than nothing, far less than the reservation (1/20 of
    // `held`).
    for (const l of abandoned) {
      expect(l.cost).toBeGreaterThan(0n)
      expect(l.cost).toBeLessThan(held / 20n / 100n)
    }
    const billed = abandoned.reduce((s, l) => s + l.cost, 0n)
    expect(books.balance).toBe(books.ledgerSum)
    expect(books.balance).toBe(credit - billed)
    // Released no sooner than the lease deadline (stream lease = max(timeout, client idle) + 5 s).
    expect(releasedAfterMs).toBeGreaterThan(1_000)
    console.log(`leases released ${releasedAfterMs} ms after SIGKILL`)

    up.script({ kind: 'json', body: completionWithUsage(9, 5) })
    const next = await chatRequest(b.url, user.key, false)
    expect(next.status).toBe(200)
    const nextId = next.headers.get('x-request-id')!
    await until(async () => (await booksOf(db.url, user.userId)).logs.some((l) => l.id === nextId), 'the next call to be written', 30_000)
    const after = await booksOf(db.url, user.userId)
    expect(after.balance).toBe(after.ledgerSum)
    expect(after.balance).toBe(credit - billed - (9n * 1n + 5n * 2n))
    expect(await reservedIn(REDIS_URL, keys.prefix, user.userId)).toBe(0n)
  }, 120_000)
})

for (const backends of ALL_BACKENDS) {
  describe(`leases of live calls (${backends.db}+${backends.store})`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream(finiteTicking(80, 100))
      // Gateway timeout 1 s, client idle 1 s: the first lease and each renewal last 6 s.
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url, timeoutMs: 1_000 }]), {
        CLIENT_IDLE_TIMEOUT_MS: '1000',
      })
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    test('a stream that outlives its first lease keeps it by renewal: answered, billed its real usage once, never abandoned', async () => {
      const u = await gw.user(1)
      // 80 frames 100 ms apart: at least 8 s, past the first deadline (6 s).
      const res = await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(u.key), body: chatBody({ stream: true }) })
      const text = await res.text()
      expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true)
      await gw.settled()
      const logs = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.userId, u.userId))
      expect(logs.map((l) => [l.status, l.errorCode, l.usageSource, l.outputTokens])).toEqual([[200, null, 'upstream', 1000]])
      const books = await gw.books(u.userId)
      expect(books.balance).toBe(books.ledgerSum)
      expect(books.balance).toBe(1_000_000n - logs[0]!.costMicros)
      expect(await reservedOf(gw, u.userId)).toBe(0n)
      expect(await gw.runtime.deps.store.sweepLeases(Date.now() + 3_600_000, 100)).toBe(0)
    }, 60_000)
  })
}
