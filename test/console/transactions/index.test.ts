// GET /api/wallet/transactions and /:id (docs/console.md "Wallet"): a session is required; the
// user's own entries with kind and status filters; a bad filter is a 400 naming the allowed
// values; another user's entry a 404; an over-long id is refused before any lookup.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { applyMovement } from '../../../src/billing/accounts.ts'
import { simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { browser, CONSOLE_ENV, json, signUp, type SignedIn } from '../helpers.ts'

describe('transaction routes on pglite+memory', () => {
  let gw: TestGateway
  let me: SignedIn
  let other: SignedIn
  const credit = (userId: string, micros: bigint, reference: string) =>
    applyMovement(gw.runtime.deps.db, gw.runtime.deps.store, {
      userId,
      amountMicros: micros,
      kind: 'adjustment',
      method: 'admin',
      reference,
    })
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), CONSOLE_ENV)
    me = await signUp(gw)
    other = await signUp(gw)
    await credit(me.id, 3_000_000n, 'tx-route-1')
    await credit(me.id, -1_000_000n, 'tx-route-2')
    await credit(other.id, 9_000_000n, 'tx-route-3')
  }, 60_000)
  afterAll(() => gw.stop())

  test('without a session: 401', async () => {
    expect((await browser(gw).get('/api/wallet/transactions')).status).toBe(401)
  })

  test('my entries, signed USD, newest first; filters', async () => {
    const page = await json(me.get('/api/wallet/transactions'))
    expect(page.items.map((t: any) => t.amount)).toEqual([-1, 3])
    expect(page.items.every((t: any) => t.kind === 'adjustment' && t.currency === 'USD')).toBe(true)
    expect((await json(me.get('/api/wallet/transactions?kind=topup'))).items).toEqual([])
    expect((await json(me.get('/api/wallet/transactions?status=completed'))).items).toHaveLength(2)
    const detail = await json(me.get(`/api/wallet/transactions/${page.items[0].id}`))
    expect(detail).toMatchObject({ id: page.items[0].id, amount: -1, note: null })
  })

  test('bad filters are 400; a foreign or over-long id is refused', async () => {
    const bad = await me.get('/api/wallet/transactions?kind=bonus')
    expect(bad.status).toBe(400)
    expect((await json(bad)).error.message).toContain('kind must be one of: topup, usage, refund, adjustment.')
    const theirs = (await json(other.get('/api/wallet/transactions'))).items[0].id
    expect((await me.get(`/api/wallet/transactions/${theirs}`)).status).toBe(404)
    const long = await me.get(`/api/wallet/transactions/${'x'.repeat(101)}`)
    expect(long.status).toBe(400)
    expect((await json(long)).error.code).toBe('BAD_REQUEST')
  })
})
