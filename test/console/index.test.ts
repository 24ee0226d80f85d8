// The console's composition (console/index.ts): each feature answers under its prefix, errors
// in the console envelope; the sandbox checkout pages exist only with SANDBOX_PAYMENTS_SECRET.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { CONSOLE_ENV, json, signUp } from './helpers.ts'

const CATALOG = simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }])

for (const sandbox of [false, true]) {
  describe(`console routes ${sandbox ? 'with' : 'without'} the sandbox provider`, () => {
    let gw: TestGateway
    beforeAll(async () => {
      gw = await startTestGateway(
        { db: 'pglite', store: 'memory' },
        CATALOG,
        sandbox ? { ...CONSOLE_ENV, SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-console-index' } : CONSOLE_ENV,
      )
    }, 60_000)
    afterAll(() => gw.stop())

    test('every feature answers a signed-in user under its prefix', async () => {
      const u = await signUp(gw)
      for (const path of [
        '/api/auth/me',
        '/api/keys',
        '/api/wallet/account',
        '/api/wallet/auto-topup',
        '/api/wallet/transactions',
        '/api/logs',
      ])
        expect({ path, status: (await u.get(path)).status }).toEqual({ path, status: 200 })
      expect((await gw.request('/api/public/models')).status).toBe(200)
    })

    test(`the sandbox checkout is ${sandbox ? 'mounted' : 'absent'}; its webhook ${sandbox ? 'exists' : 'is a 404'}`, async () => {
      const u = await signUp(gw)
      const page = await u.get('/api/payments/sandbox/txn_nope')
      // Mounted: the owner check answers (no such checkout); absent: no route at all.
      expect(page.status).toBe(404)
      const message = (await json(page)).error?.message
      expect(message === 'No such checkout.').toBe(sandbox)
      const hook = await gw.request('/api/webhooks/sandbox', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
      expect(hook.status).toBe(sandbox ? 400 : 404)
    })
  })
}
