// GET /api/wallet/account and GET|PUT /api/wallet/auto-topup (docs/console.md "Wallet", "Auto
// top-up"): a session is required; the account in USD with the top-up policy; auto top-up off
// until set; a PUT with the sandbox provider saves its method at once; an unconfigured provider is
// 402, an amount outside the policy 422, and neither changes the settings.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { applyMovement } from '../../../src/billing/accounts.ts'
import { simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { browser, CONSOLE_ENV, json, signUp, type SignedIn } from '../helpers.ts'

describe('wallet routes on pglite+memory', () => {
  let gw: TestGateway
  let me: SignedIn
  const put = (body: unknown) =>
    me.fetch('/api/wallet/auto-topup', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', origin: me.base },
      body: JSON.stringify(body),
    })
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      ...CONSOLE_ENV,
      SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-wallet-route',
      TOPUP_MIN_USD: '5',
      TOPUP_MAX_USD: '200',
    })
    me = await signUp(gw)
    await applyMovement(gw.runtime.deps.db, gw.runtime.deps.store, {
      userId: me.id,
      amountMicros: 3_250_000n,
      kind: 'adjustment',
      method: 'admin',
      reference: 'wallet-route',
    })
  }, 60_000)
  afterAll(() => gw.stop())

  test('without a session: 401 on every wallet route', async () => {
    const anon = browser(gw)
    expect((await anon.get('/api/wallet/account')).status).toBe(401)
    expect((await anon.get('/api/wallet/auto-topup')).status).toBe(401)
  })

  test('the account: USD balance, the policy and the providers configured here', async () => {
    expect(await json(me.get('/api/wallet/account'))).toEqual({
      balance: 3.25,
      reserved: 0,
      available: 3.25,
      currency: 'USD',
      spentThisMonth: 0,
      pendingTopups: { count: 0, amount: 0 },
      topup: { min: 5, max: 200, providers: ['sandbox'] },
    })
  })

  test('auto top-up: off until set; the sandbox saves its method at once', async () => {
    expect(await json(me.get('/api/wallet/auto-topup'))).toMatchObject({ enabled: false, threshold: null, paymentMethodSaved: false })
    const res = await put({ enabled: true, threshold: 2, amount: 20, provider: 'sandbox' })
    expect(res.status).toBe(200)
    expect(await json(res)).toMatchObject({
      enabled: true,
      threshold: 2,
      amount: 20,
      provider: 'sandbox',
      paymentMethodSaved: true,
      setupUrl: null,
    })
    expect(await json(me.get('/api/wallet/auto-topup'))).toMatchObject({ enabled: true, amount: 20 })
  })

  test('refusals change nothing: unconfigured provider 402, amount outside the policy 422', async () => {
    const before = await json(me.get('/api/wallet/auto-topup'))
    expect((await put({ enabled: true, threshold: 2, amount: 20, provider: 'stripe' })).status).toBe(402)
    const out = await put({ enabled: true, threshold: 2, amount: 500, provider: 'sandbox' })
    expect(out.status).toBe(422)
    expect((await json(out)).error.message).toContain('amount')
    expect(await json(me.get('/api/wallet/auto-topup'))).toEqual(before)
  })
})
