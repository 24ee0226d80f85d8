// Auto top-up (docs/console.md "Auto top-up"): settings read and set as a whole (policy 422,
// unknown member 422, unconfigured provider 402); settlements that cross the threshold at once,
// across instances, start exactly one top-up, credited through the webhook path, with one signed
// low-balance notice; a failed charge turns auto top-up off and shows why; the books stay exact
// (balance = Σ ledger) and nothing stays reserved.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { ledgerEntries } from '../../../src/db/schema/index.ts'
import { ChargeDeclined, type PaymentProvider } from '../../../src/console/payments/provider.ts'
import { sandboxEvent, sandboxProvider, SANDBOX_SIGNATURE, signSandboxEvent } from '../../../src/console/payments/sandbox.ts'
import { AutoTopupTrigger } from '../../../src/console/wallet/auto-topup-trigger.ts'
import { receiveWebhook } from '../../../src/console/webhooks/service.ts'
import { LOW_BALANCE_SIGNATURE, signBody } from '../../../src/console/wallet/low-balance.ts'
import { ALL_BACKENDS, type GatewayInstance, simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { reservedOf } from '../../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../../helpers/fake-upstream.ts'
import { fixtureJson } from '../../helpers/fixtures.ts'
import { CONSOLE_ENV, json, signUp, type SignedIn } from '../helpers.ts'

const SECRET = 'sandbox-secret-auto-topup'
const HOOK_SECRET = 'low-balance-secret-0123456789'

for (const backends of ALL_BACKENDS) {
  describe(`auto top-up on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let up: FakeUpstream
    let instances: GatewayInstance[]
    let hook: ReturnType<typeof Bun.serve>
    const notices: { body: string; signature: string | null }[] = []
    beforeAll(async () => {
      hook = Bun.serve({
        port: 0,
        hostname: '127.0.0.1',
        async fetch(req) {
          notices.push({ body: await req.text(), signature: req.headers.get(LOW_BALANCE_SIGNATURE) })
          return new Response('ok')
        },
      })
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]), {
        ...CONSOLE_ENV,
        SANDBOX_PAYMENTS_SECRET: SECRET,
        LOW_BALANCE_WEBHOOK_URL: `http://127.0.0.1:${hook.port}/hook`,
        LOW_BALANCE_WEBHOOK_SECRET: HOOK_SECRET,
      })
      instances = backends.store === 'redis' ? [gw, await gw.peer(), await gw.peer()] : [gw]
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
      hook.stop(true)
    })

    const put = (u: SignedIn, body: unknown) =>
      u.fetch('/api/wallet/auto-topup', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', origin: u.base },
        body: JSON.stringify(body),
      })
    const credit = (u: SignedIn, usd: number) =>
      gw.request(`/api/admin/users/${u.id}/credits`, {
        method: 'POST',
        headers: { authorization: 'Bearer test-admin-token-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ amount: usd }),
      })
    const topups = (userId: string) =>
      gw.runtime.deps.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'topup')))

    test('settings: none at first; set as a whole; policy, unknown members and providers refused, changing nothing', async () => {
      const u = await signUp(gw)
      expect(await json(u.get('/api/wallet/auto-topup'))).toMatchObject({ enabled: false, threshold: null, amount: null, provider: null })
      const bad: [unknown, number, string][] = [
        [{ enabled: true, threshold: 1, amount: 1, provider: 'sandbox' }, 422, 'amount:'],
        [{ enabled: true, threshold: -1, amount: 10, provider: 'sandbox' }, 422, 'threshold:'],
        [{ enabled: true, threshold: 1, amount: 10, provider: 'sandbox', limit: 2 }, 422, 'limit:'],
        [{ enabled: true, threshold: 1, amount: 10 }, 422, 'provider'],
        [{ enabled: true, threshold: 1, amount: 10, provider: 'stripe' }, 402, 'Payment provider "stripe"'],
      ]
      for (const [body, status, start] of bad) {
        const res = await put(u, body)
        expect(res.status).toBe(status)
        expect((await json(res)).error.message).toContain(start)
      }
      expect((await json(u.get('/api/wallet/auto-topup'))).provider).toBeNull()
      const set = await json(put(u, { enabled: true, threshold: 2.5, amount: 10, provider: 'sandbox' }))
      expect(set).toEqual({
        enabled: true,
        threshold: 2.5,
        amount: 10,
        provider: 'sandbox',
        paymentMethodSaved: true,
        inFlight: false,
        lowBalance: false,
        lastError: null,
        setupUrl: null,
      })
      expect(await json(u.get('/api/wallet/auto-topup'))).toEqual(set)
    })

    test('concurrent settlements crossing the threshold on every instance start exactly one top-up; one signed notice; books exact', async () => {
      const u = await signUp(gw)
      await json(put(u, { enabled: true, threshold: 1, amount: 5, provider: 'sandbox' }))
      // 1.002 USD and calls of 221 micro-USD: the 10th crosses under 1 USD; 30 calls settle around it.
      expect((await credit(u, 1.002)).status).toBe(200)
      const { key } = await json(u.post('/api/keys', {}))
      const body = JSON.stringify({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 10 })
      const calls = Array.from({ length: 30 }, (_, i) =>
        instances[i % instances.length]!.request('/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body,
        }),
      )
      expect((await Promise.all(calls)).map((r) => r.status)).toEqual(Array(30).fill(200))
      await gw.settled()
      const entries = await topups(u.id)
      const auto = entries.filter((e) => (e.meta as { auto?: boolean } | null)?.auto)
      expect(auto).toHaveLength(1)
      expect(auto[0]).toMatchObject({ status: 'completed', amountMicros: 5_000_000n, method: 'sandbox' })
      const books = await gw.books(u.id)
      expect(books.balance).toBe(books.ledgerSum)
      expect(books.balance).toBe(1_002_000n + 5_000_000n - 30n * 221n)
      expect(await reservedOf(gw, u.id)).toBe(0n)
      expect(await json(u.get('/api/wallet/auto-topup'))).toMatchObject({ inFlight: false, lowBalance: false, enabled: true })
      const mine = notices.filter((n) => n.body.includes(u.id))
      expect(mine).toHaveLength(1)
      const sent = JSON.parse(mine[0]!.body)
      expect(sent).toMatchObject({ type: 'balance.low', userId: u.id, threshold: 1 })
      expect(sent.balance).toBeLessThan(1)
      const t = Number(/t=(\d+)/.exec(mine[0]!.signature ?? '')?.[1])
      expect(mine[0]!.signature).toBe(signBody(HOOK_SECRET, mine[0]!.body, t))
    })

    test("a payment method saved on the provider's page arrives through the webhook path", async () => {
      const u = await signUp(gw)
      await json(put(u, { enabled: false, threshold: 1, amount: 5, provider: 'sandbox' }))
      // Turned off, nothing was set up: no method yet.
      expect(await json(u.get('/api/wallet/auto-topup'))).toMatchObject({ paymentMethodSaved: false, setupUrl: null })
      const saving: PaymentProvider = {
        ...sandboxProvider({ secret: SECRET }),
        verifyWebhook: async () => ({
          id: 'evt_setup',
          type: 'checkout.session.completed',
          action: { kind: 'method_saved', userId: u.id, paymentMethod: 'cus_1/pm_1' },
        }),
      }
      expect(await receiveWebhook(gw.runtime.deps, saving, '{}', new Headers())).toEqual({ received: true, outcome: 'method saved' })
      expect(await json(u.get('/api/wallet/auto-topup'))).toMatchObject({ paymentMethodSaved: true, enabled: false })
    })

    /** A trigger on this instance's books with `provider` as the sandbox. */
    const triggerWith = (provider: PaymentProvider) =>
      new AutoTopupTrigger({ ...gw.runtime.deps, payments: new Map([['sandbox', provider]]) })

    test('a charge declined at once fails the top-up and turns auto top-up off, showing why; nothing is credited', async () => {
      const u = await signUp(gw)
      await json(put(u, { enabled: true, threshold: 10, amount: 5, provider: 'sandbox' }))
      await credit(u, 1)
      const declining = {
        ...sandboxProvider({ secret: SECRET }),
        chargeSaved: () => Promise.reject(new ChargeDeclined('Your card was declined.')),
      }
      await triggerWith(declining).afterSettle(u.id)
      const [entry] = await topups(u.id)
      expect(entry).toMatchObject({ status: 'failed', amountMicros: 5_000_000n })
      expect(await json(u.get('/api/wallet/auto-topup'))).toMatchObject({
        enabled: false,
        inFlight: false,
        lastError: 'Your card was declined.',
        lowBalance: true,
      })
      const books = await gw.books(u.id)
      expect(books).toEqual({ balance: 1_000_000n, ledgerSum: 1_000_000n })
      // Turned off: the next settlement starts nothing.
      await triggerWith(declining).afterSettle(u.id)
      expect(await topups(u.id)).toHaveLength(1)
      // Saving the settings again clears the reason and turns it back on.
      expect(await json(put(u, { enabled: true, threshold: 10, amount: 5, provider: 'sandbox' }))).toMatchObject({
        enabled: true,
        lastError: null,
      })
    })

    test("a failure that arrives as the provider's webhook event turns it off the same way", async () => {
      const u = await signUp(gw)
      await json(put(u, { enabled: true, threshold: 10, amount: 5, provider: 'sandbox' }))
      await credit(u, 1)
      const failing: PaymentProvider = {
        ...sandboxProvider({ secret: SECRET }),
        async chargeSaved(req) {
          const body = JSON.stringify(sandboxEvent('payment.failed', req.transactionId, req.amountCents))
          return {
            sessionId: `sbx_${req.transactionId}`,
            delivery: { body, headers: new Headers({ [SANDBOX_SIGNATURE]: signSandboxEvent(SECRET, body) }) },
          }
        },
      }
      await triggerWith(failing).afterSettle(u.id)
      expect((await topups(u.id))[0]).toMatchObject({ status: 'failed' })
      expect(await json(u.get('/api/wallet/auto-topup'))).toMatchObject({ enabled: false, inFlight: false, lastError: 'payment failed' })
      expect(await gw.books(u.id)).toEqual({ balance: 1_000_000n, ledgerSum: 1_000_000n })
    })
  })
}
