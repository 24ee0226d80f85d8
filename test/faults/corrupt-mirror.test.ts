// A corrupt account mirror in Redis (a value that is not a number) fails that account's own
// admission, alone: admissions share script calls (src/store/turn-batch.ts) and admit.lua runs
// each under pcall, so the others of its batch are served. The failed call is a 503 that reserves
// nothing, and drops the mirror, so the account's next call reloads it from Postgres and is served.
import Redis from 'ioredis'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { completionWithUsage, expectChatError, postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectExactBooks, reservedNow } from '../helpers/money.ts'
import { describeServices, REDIS_URL } from '../helpers/services.ts'

const COST = 61n // 5 prompt + 100 completion tokens at 0.15 / 0.6 USD per 1M
const CREDIT = 1_000_000n

describeServices('a corrupt account mirror (postgres + redis)', () => {
  let up: FakeUpstream
  let gw: TestGateway
  let redis: Redis
  beforeAll(async () => {
    up = startFakeUpstream({ kind: 'json', body: completionWithUsage(5, 100) })
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, simpleCatalog([{ id: 'gw-a', url: up.url }]))
    redis = new Redis(REDIS_URL)
  }, 30_000)
  afterAll(async () => {
    redis?.disconnect()
    await gw.stop()
    up.stop()
  })

  test('fails only its own call, reserves nothing, and heals from Postgres on the next call', async () => {
    const broken = await gw.user(1)
    const others = await Promise.all([gw.user(1), gw.user(1), gw.user(1)])
    const billed = new Map<string, { requestId: string; cost: bigint }[]>()
    const bill = (userId: string, res: Response) =>
      billed.set(userId, [...(billed.get(userId) ?? []), { requestId: res.headers.get('x-request-id')!, cost: COST }])
    for (const u of [broken, ...others]) {
      const res = await postChat(gw, u.key)
      expect(res.status).toBe(200)
      bill(u.userId, res)
    }
    // No wait for the ledger writer: the reload below counts these calls whether or not they
    // have reached Postgres yet (docs/operations.md "Reloading a mirror").
    const [mirror] = (await redis.keys(`*:acct:${broken.userId}`)) as [string]
    expect(mirror).toBeDefined()
    await redis.hset(mirror, 'balance', 'not a number')

    const [refused, ...served] = await Promise.all([broken, ...others].map((u) => postChat(gw, u.key)))
    await expectChatError(refused!, 503, 'SERVICE_UNAVAILABLE')
    expect(refused!.headers.get('retry-after')).toBe('1')
    for (const [i, res] of served.entries()) {
      expect(res.status).toBe(200)
      bill(others[i]!.userId, res)
    }
    expect(await redis.hget(mirror, 'balance')).toBeNull()

    const healed = await postChat(gw, broken.key)
    expect(healed.status).toBe(200)
    bill(broken.userId, healed)
    await gw.settled()
    for (const u of [broken, ...others]) {
      await expectExactBooks(gw, u.userId, CREDIT, billed.get(u.userId)!)
      expect(await reservedNow(gw, u.userId)).toBe(0n)
    }
    expect((await gw.runtime.deps.store.account(broken.userId))?.balanceMicros).toBe(CREDIT - 2n * COST)
  }, 30_000)
})
