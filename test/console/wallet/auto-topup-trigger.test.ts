// What follows a settlement for accounts with auto top-up (docs/console.md "Auto top-up"): above
// the threshold nothing happens; crossing under it sends one signed low-balance notice and starts
// one top-up of the set amount through the saved method; a provider that answers at once credits
// it through the verified webhook path; a declined charge fails the top-up and turns auto top-up
// off with the provider's reason, an unreachable provider with a generic one; the books stay exact.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { applyMovement, createUser } from '../../../src/billing/accounts.ts'
import { sandboxProvider } from '../../../src/console/payments/sandbox.ts'
import { ChargeDeclined, type PaymentProvider } from '../../../src/console/payments/provider.ts'
import { AutoTopupTrigger } from '../../../src/console/wallet/auto-topup-trigger.ts'
import { accounts, autoTopups, ledgerEntries } from '../../../src/db/schema/index.ts'
import { silentLogger } from '../../../src/lib/log.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'

const DOLLAR = 1_000_000n

describe('AutoTopupTrigger on embedded Postgres', () => {
  let m: MemoryDb
  let hook: ReturnType<typeof Bun.serve>
  const notices: { body: any; signature: string | null }[] = []
  const charges: { amountCents: number; paymentMethod: string }[] = []
  let declineWith: Error | undefined
  const sandbox = sandboxProvider({ secret: 'trigger-secret' })
  /** The sandbox, counting charges; it can be told to refuse one. */
  const provider: PaymentProvider = {
    ...sandbox,
    async chargeSaved(req) {
      charges.push({ amountCents: req.amountCents, paymentMethod: req.paymentMethod })
      if (declineWith) throw declineWith
      return sandbox.chargeSaved(req)
    },
  }
  let trigger: AutoTopupTrigger

  const userWith = async (balanceUsd: bigint, settings: Partial<typeof autoTopups.$inferInsert>) => {
    const { id } = await createUser(m.db, `${crypto.randomUUID()}@test.local`, null)
    await applyMovement(m.db, m.store, {
      userId: id,
      amountMicros: balanceUsd * DOLLAR,
      kind: 'adjustment',
      method: 'test',
      reference: `seed:${id}`,
    })
    await m.db.insert(autoTopups).values({
      userId: id,
      enabled: true,
      thresholdMicros: 5n * DOLLAR,
      amountMicros: 20n * DOLLAR,
      provider: 'sandbox',
      paymentMethod: 'sandbox',
      ...settings,
    })
    return id
  }
  const settingsOf = async (id: string) => (await m.db.select().from(autoTopups).where(eq(autoTopups.userId, id)))[0]!
  const topups = (id: string) =>
    m.db.select().from(ledgerEntries).where(sql`${ledgerEntries.userId} = ${id} and ${ledgerEntries.kind} = 'topup'`)
  const books = async (id: string) => {
    const [a] = await m.db.select({ b: accounts.balanceMicros }).from(accounts).where(eq(accounts.userId, id))
    const [s] = await m.db
      .select({ s: sql<string>`coalesce(sum(${ledgerEntries.amountMicros}), 0)::text` })
      .from(ledgerEntries)
      .where(sql`${ledgerEntries.userId} = ${id} and ${ledgerEntries.status} = 'completed'`)
    return { balance: a!.b, ledgerSum: BigInt(s!.s) }
  }

  beforeAll(async () => {
    m = await memoryDb()
    hook = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: async (req) => {
        notices.push({ body: await req.json(), signature: req.headers.get('x-tollgate-signature') })
        return new Response(null, { status: 204 })
      },
    })
    trigger = new AutoTopupTrigger({
      db: m.db,
      store: m.store,
      log: silentLogger,
      payments: new Map([['sandbox', provider]]),
      config: { lowBalanceWebhook: { url: `http://127.0.0.1:${hook.port}/low`, secret: 'low-balance-secret-0123' } },
      now: () => Date.now(),
    })
  }, 30_000)
  afterAll(async () => {
    hook.stop(true)
    await m.close()
  })

  test('above the threshold: no notice, no top-up', async () => {
    const id = await userWith(6n, {})
    await trigger.afterSettle(id)
    expect(await topups(id)).toEqual([])
    expect(notices.filter((n) => n.body.userId === id)).toEqual([])
  })

  test('under it: one signed notice and one top-up of the set amount, credited at once; books exact', async () => {
    const id = await userWith(4n, {})
    charges.length = 0
    await trigger.afterSettle(id)
    await trigger.afterSettle(id)
    const mine = notices.filter((n) => n.body.userId === id)
    expect(mine).toHaveLength(1)
    expect(mine[0]!.body).toMatchObject({ type: 'balance.low', balance: 4, threshold: 5 })
    expect(mine[0]!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(charges).toEqual([{ amountCents: 2000, paymentMethod: 'sandbox' }])
    const [t] = await topups(id)
    expect(t).toMatchObject({ status: 'completed', amountMicros: 20n * DOLLAR })
    expect(await books(id)).toEqual({ balance: 24n * DOLLAR, ledgerSum: 24n * DOLLAR })
    expect((await settingsOf(id)).inFlight).toBeNull()
  })

  test('disabled, or without a saved method: the notice still goes, no charge', async () => {
    charges.length = 0
    const off = await userWith(1n, { enabled: false })
    const noMethod = await userWith(1n, { paymentMethod: null })
    await trigger.afterSettle(off)
    await trigger.afterSettle(noMethod)
    expect(charges).toEqual([])
    expect(notices.filter((n) => n.body.userId === off || n.body.userId === noMethod)).toHaveLength(2)
    expect([...(await topups(off)), ...(await topups(noMethod))]).toEqual([])
  })

  test("a declined charge fails the top-up and turns auto top-up off with the provider's reason", async () => {
    const id = await userWith(1n, {})
    declineWith = new ChargeDeclined('card declined')
    try {
      await trigger.afterSettle(id)
    } finally {
      declineWith = undefined
    }
    const [t] = await topups(id)
    expect(t!.status).toBe('failed')
    expect(await settingsOf(id)).toMatchObject({ enabled: false, inFlight: null, lastError: 'card declined' })
    expect(await books(id)).toEqual({ balance: DOLLAR, ledgerSum: DOLLAR })
  })

  test('an unreachable provider fails it with a generic reason (no provider detail shown)', async () => {
    const id = await userWith(1n, {})
    declineWith = new Error('ECONNREFUSED 10.0.0.7:443 secret-internal-host')
    try {
      await trigger.afterSettle(id)
    } finally {
      declineWith = undefined
    }
    expect((await settingsOf(id)).lastError).toBe('the payment provider could not be reached')
  })

  test('settings are cached briefly: a change elsewhere is seen after invalidate()', async () => {
    // Already low and switched off: the cached row says there is nothing to do.
    const id = await userWith(1n, { enabled: false, lowSince: new Date() })
    await trigger.afterSettle(id)
    charges.length = 0
    await m.db.update(autoTopups).set({ enabled: true }).where(eq(autoTopups.userId, id))
    await trigger.afterSettle(id)
    expect(charges).toHaveLength(0)
    trigger.invalidate(id)
    await trigger.afterSettle(id)
    expect(charges).toHaveLength(1)
  })
})
