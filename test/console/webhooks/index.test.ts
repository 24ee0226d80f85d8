// POST /api/webhooks/:provider (docs/console.md "Top-ups"): the provider's signature over the raw
// body is the authentication (no session, no same-origin check); an unconfigured provider is a
// 404; a forged or non-JSON body is a 400 and credits nothing; a signed payment credits once.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sandboxEvent, SANDBOX_SIGNATURE, signSandboxEvent } from '../../../src/console/payments/sandbox.ts'
import { simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { CONSOLE_ENV, json, signUp, type SignedIn } from '../helpers.ts'

const SECRET = 'sandbox-secret-webhook-route'

describe('webhook route on pglite+memory', () => {
  let gw: TestGateway
  let me: SignedIn
  const hook = (provider: string, body: string, signature?: string) =>
    gw.request(`/api/webhooks/${provider}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { [SANDBOX_SIGNATURE]: signature } : {}) },
      body,
    })
  const balance = async () => (await json(me.get('/api/wallet/account'))).balance
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      ...CONSOLE_ENV,
      SANDBOX_PAYMENTS_SECRET: SECRET,
    })
    me = await signUp(gw)
  }, 60_000)
  afterAll(() => gw.stop())

  test('an unconfigured provider is 404', async () => {
    const res = await hook('stripe', '{}')
    expect(res.status).toBe(404)
    expect((await json(res)).error.code).toBe('NOT_FOUND')
  })

  test('a forged signature and a non-JSON body are 400; nothing is credited', async () => {
    const { transactionId } = await json(me.post('/api/wallet/topup', { amount: 10, provider: 'sandbox' }))
    const body = JSON.stringify(sandboxEvent('payment.succeeded', transactionId, 1000))
    expect((await hook('sandbox', body, signSandboxEvent('not-the-secret', body))).status).toBe(400)
    expect((await hook('sandbox', body)).status).toBe(400)
    expect((await hook('sandbox', 'not json', signSandboxEvent(SECRET, 'not json'))).status).toBe(400)
    expect(await balance()).toBe(0)
  })

  test('a signed payment credits the top-up once, redelivered or not; no session or Origin needed', async () => {
    const { transactionId } = await json(me.post('/api/wallet/topup', { amount: 10, provider: 'sandbox' }))
    const body = JSON.stringify(sandboxEvent('payment.succeeded', transactionId, 1000))
    const first = await hook('sandbox', body, signSandboxEvent(SECRET, body))
    expect(first.status).toBe(200)
    expect((await json(first)).received).toBe(true)
    expect((await hook('sandbox', body, signSandboxEvent(SECRET, body))).status).toBe(200)
    expect(await balance()).toBe(10)
  })
})
