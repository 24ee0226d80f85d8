import { test, expect } from 'bun:test'
import { startTestGateway, simpleCatalog } from '/work/wt-8/test/helpers/gateway.ts'
import { signUp, json } from '/work/wt-8/test/console/helpers.ts'
test('x', async () => {
  const gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'a', url: 'http://127.0.0.1:1' }]), { TRUSTED_PROXIES: '127.0.0.1,::1', SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-123456' })
  const u = await signUp(gw)
  const r = await u.fetch('/api/wallet/topup', { method: 'POST', headers: { 'content-type': 'application/json', origin: u.base }, body: 'x'.repeat(5_000_000) })
  console.log(r.status, await r.text(), [...r.headers])
  const r2 = await u.post('/api/wallet/topup', [1])
  console.log(r2.status, await r2.text())
  const r3 = await u.fetch('/api/wallet/topup', { method: 'POST', headers: { 'content-type': 'application/json', origin: u.base }, body: '{"amount":5,"provider":"sandbox\\u0000"}' })
  console.log(r3.status, await r3.text())
  const r4 = await u.fetch('/api/keys/a%00', { method: 'DELETE', headers: { origin: u.base } })
  console.log(r4.status, await r4.text())
  const r5 = await gw.request('/api/wallet/topup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":"x"}' })
  console.log(r5.status, await r5.text())
  await gw.stop()
})
