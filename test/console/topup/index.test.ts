// POST /api/wallet/topup (docs/console.md "Top-ups"): a session is required; a started top-up is
// 201 with a pending transaction and a checkout URL at PUBLIC_URL; out-of-policy amounts are 400,
// an unconfigured provider 402, unknown members 422 — and none of those writes a transaction.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { ledgerEntries } from '../../../src/db/schema/index.ts'
import { simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { browser, CONSOLE_ENV, json, signUp, type SignedIn } from '../helpers.ts'

describe('top-up route on pglite+memory', () => {
  let gw: TestGateway
  let me: SignedIn
  const entries = () => gw.runtime.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, me.id))
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      ...CONSOLE_ENV,
      SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-topup-route',
      PUBLIC_URL: 'http://console.example',
      TOPUP_MIN_USD: '5',
      TOPUP_MAX_USD: '100',
    })
    me = await signUp(gw)
  }, 60_000)
  afterAll(() => gw.stop())

  test('without a session: 401 and nothing written', async () => {
    expect((await browser(gw).post('/api/wallet/topup', { amount: 10, provider: 'sandbox' })).status).toBe(401)
  })

  test('201: a pending USD top-up whose checkout URL is at PUBLIC_URL', async () => {
    const res = await me.post('/api/wallet/topup', { amount: 12.5, provider: 'sandbox' })
    expect(res.status).toBe(201)
    const body = await json(res)
    expect(body).toMatchObject({ status: 'pending', amount: 12.5, currency: 'USD', provider: 'sandbox' })
    expect(body.checkoutUrl).toBe(`http://console.example/api/payments/sandbox/${body.transactionId}`)
    const [row] = (await entries()).filter((e) => e.id === body.transactionId)
    expect(row).toMatchObject({ kind: 'topup', status: 'pending', amountMicros: 12_500_000n, method: 'sandbox' })
  })

  test('refusals write nothing: policy 400, unconfigured provider 402, unknown member 422', async () => {
    const before = (await entries()).length
    for (const [body, status] of [
      [{ amount: 4.99, provider: 'sandbox' }, 400],
      [{ amount: 100.01, provider: 'sandbox' }, 400],
      [{ amount: 10.005, provider: 'sandbox' }, 400],
      [{ amount: 10, provider: 'stripe' }, 402],
      [{ amount: 10, provider: 'sandbox', extra: true }, 422],
    ] as const) {
      const res = await me.post('/api/wallet/topup', body)
      expect({ body, status: res.status }).toEqual({ body, status })
    }
    expect((await entries()).length).toBe(before)
  })
})
