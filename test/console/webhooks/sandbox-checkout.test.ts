// The sandbox provider's checkout page (mounted only with SANDBOX_PAYMENTS_SECRET): the owner of a
// pending sandbox top-up sees its amount and can pay or cancel, each through the verified webhook
// path; after that the page shows the outcome; nobody else sees it; ids are escaped in the HTML.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { browser, CONSOLE_ENV, json, signUp, type SignedIn } from '../helpers.ts'

describe('sandbox checkout on pglite+memory', () => {
  let gw: TestGateway
  let me: SignedIn
  let other: SignedIn
  const start = async (amount: number) =>
    (await json(me.post('/api/wallet/topup', { amount, provider: 'sandbox' }))).transactionId as string
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      ...CONSOLE_ENV,
      SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-checkout',
    })
    me = await signUp(gw)
    other = await signUp(gw)
  }, 60_000)
  afterAll(() => gw.stop())

  test('the owner sees a pending top-up with pay and cancel; not cached', async () => {
    const id = await start(7.5)
    const res = await me.get(`/api/payments/sandbox/${id}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const html = await res.text()
    expect(html).toContain('<strong>$7.50</strong>')
    expect(html).toContain(`action="/api/payments/sandbox/${id}/pay"`)
    expect(html).toContain(`action="/api/payments/sandbox/${id}/cancel"`)
  })

  test('pay credits the balance and the page says completed; paying again changes nothing', async () => {
    const id = await start(5)
    const paid = await me.post(`/api/payments/sandbox/${id}/pay`)
    expect(paid.status).toBe(200)
    expect(await paid.text()).toContain('<strong>completed</strong>')
    expect((await json(me.get('/api/wallet/account'))).balance).toBe(5)
    await me.post(`/api/payments/sandbox/${id}/pay`)
    expect((await json(me.get('/api/wallet/account'))).balance).toBe(5)
  })

  test('cancel fails the top-up without credit', async () => {
    const before = (await json(me.get('/api/wallet/account'))).balance
    const id = await start(9)
    expect(await (await me.post(`/api/payments/sandbox/${id}/cancel`)).text()).toContain('<strong>failed</strong>')
    expect((await json(me.get('/api/wallet/account'))).balance).toBe(before)
  })

  test("another user, or no session, cannot see or pay someone's checkout", async () => {
    const id = await start(6)
    expect((await other.get(`/api/payments/sandbox/${id}`)).status).toBe(404)
    expect((await other.post(`/api/payments/sandbox/${id}/pay`)).status).toBe(404)
    expect((await browser(gw).get(`/api/payments/sandbox/${id}`)).status).toBe(401)
    expect((await json(me.get(`/api/wallet/transactions/${id}`))).status).toBe('pending')
  })
})
