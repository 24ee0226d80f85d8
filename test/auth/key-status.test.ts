// GET /v1/key (docs/api.md "Key"): the calling key's own limit, spend, rate limit and expiry, and
// its account's balance, in OpenRouter's `{ data: { label, limit, usage, limit_remaining, … } }`
// shape; errors in the chat envelope. On both backends: the balance is the store's live one.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { apiKeys, requestLogs } from '../../src/db/schema/index.ts'
import { expectUsageCoversCalls } from '../helpers/money.ts'
import { formatUsd } from '../../src/lib/money.ts'
import { postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { ALL_BACKENDS, bearer, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

const usd = (micros: bigint) => Number(formatUsd(micros))

for (const backends of ALL_BACKENDS) {
  describe(`GET /v1/key on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]), { DEFAULT_RPM: '120' })
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    const status = async (key: string) => {
      const res = await gw.request('/v1/key', { headers: bearer(key) })
      expect(res.status).toBe(200)
      expect(res.headers.get('x-request-id')).toMatch(/^req_[^,]+$/)
      return ((await res.json()) as { data: Record<string, any> }).data
    }

    test('a fresh key: its limit, nothing spent, its rpm and expiry, the account balance', async () => {
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString()
      const u = await gw.user(10, { limit: 5, rpm: 30, expiresAt })
      const [row] = await gw.runtime.deps.db.select().from(apiKeys).where(eq(apiKeys.id, u.keyId))
      expect(await status(u.key)).toEqual({
        id: u.keyId,
        label: `${row!.prefix}…`,
        prefix: row!.prefix,
        limit: 5,
        usage: 0,
        usage_monthly: 0,
        limit_remaining: 5,
        rate_limit: { requests: 30, interval: '1m' },
        expires_at: expiresAt,
        service_mode: 'performance',
        created_at: row!.createdAt.toISOString(),
        account: { balance: 10, reserved: 0, available: 10, currency: 'USD' },
      })
    })

    test('after a call: usage and the balance move by what the ledger billed', async () => {
      const u = await gw.user(10, { limit: 5 })
      expect((await postChat(gw, u.key)).status).toBe(200)
      await gw.settled()
      const [call] = await gw.runtime.deps.db
        .select({ cost: requestLogs.costMicros })
        .from(requestLogs)
        .where(eq(requestLogs.keyId, u.keyId))
      const cost = call!.cost
      expect(cost).toBeGreaterThan(0n)
      // The ledger billed exactly that: the account's usage entries are the calls' costs.
      await expectUsageCoversCalls(gw.runtime.deps.db, u.userId)
      const s = await status(u.key)
      expect(s.usage).toBe(usd(cost))
      expect(s.usage_monthly).toBe(usd(cost))
      expect(s.limit_remaining).toBe(usd(5_000_000n - cost))
      expect(s.account).toEqual({ balance: usd(10_000_000n - cost), reserved: 0, available: usd(10_000_000n - cost), currency: 'USD' })
    })

    test('no limit, no rpm of its own, no expiry: nulls and the operator default rpm', async () => {
      const u = await gw.user(0)
      const s = await status(u.key)
      expect(s.limit).toBeNull()
      expect(s.limit_remaining).toBeNull()
      expect(s.expires_at).toBeNull()
      expect(s.rate_limit).toEqual({ requests: 120, interval: '1m' })
      expect(s.account.balance).toBe(0)
    })

    test('an invalid or revoked key → 401 in the chat envelope', async () => {
      const u = await gw.user(1)
      await gw.runtime.deps.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, u.keyId))
      gw.runtime.deps.auth.invalidate(u.keyId)
      for (const key of ['sk-unknown', u.key]) {
        const res = await gw.request('/v1/key', { headers: bearer(key) })
        expect(res.status).toBe(401)
        expect(await res.json()).toMatchObject({ status: 'error', error: { code: 'UNAUTHORIZED' } })
      }
    })
  })
}
