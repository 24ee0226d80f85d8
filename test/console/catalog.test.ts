// The public catalog (docs/console.md "Public catalog"): no auth, search
// over name and description that is case-insensitive and injection-safe, filters, every sort,
// pages, 400s for out-of-range parameters, CDN cache headers — and the OpenAPI document.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { issueKey } from '../../src/auth/issue-key.ts'
import { applyMovement } from '../../src/billing/accounts.ts'
import { createUser } from '../../src/billing/accounts.ts'
import { ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { browser, CONSOLE_ENV, json } from './helpers.ts'

for (const backends of ALL_BACKENDS) {
  describe(`public catalog on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let up: FakeUpstream
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      const catalog = simpleCatalog([{ id: 'gw-a', url: up.url }])
      const base = catalog.models[0]!
      catalog.gateways.push({ id: 'gw-off', protocol: 'openai-chat', baseUrl: `${up.url}/v1`, enabled: false })
      catalog.models.push(
        {
          ...base,
          id: 'zeta/big',
          name: 'Zeta Big',
          description: 'A LARGE context model',
          provider: 'zeta',
          family: 'big',
          contextWindow: 1_000_000,
          capabilities: ['text', 'vision'],
          pricing: { input: 5, output: 15 },
        },
        {
          ...base,
          id: 'acme/mini',
          name: 'Acme Mini',
          description: "cheap 100% _fast_ model' OR 1=1 --",
          provider: 'acme',
          family: 'mini',
          contextWindow: 8_000,
          pricing: { input: 0.01, output: 0.02 },
        },
        { ...base, id: 'acme/old', name: 'Old Chat', description: 'Deprecated', deprecated: true },
        { ...base, id: 'acme/unpriced', name: 'Unpriced Chat', description: 'No price yet', pricing: { input: null, output: null } },
        {
          ...base,
          id: 'acme/orphan',
          name: 'Orphan Chat',
          description: 'Only a disabled gateway',
          routes: [{ gateway: 'gw-off', model: 'x' }],
        },
      )
      gw = await startTestGateway(backends, catalog, CONSOLE_ENV)
      // Popularity: two calls to acme/mini this week.
      const user = await createUser(gw.runtime.deps.db, `pop-${crypto.randomUUID()}@t.io`, null)
      await applyMovement(gw.runtime.deps.db, gw.runtime.deps.store, {
        userId: user.id,
        amountMicros: 1_000_000n,
        kind: 'adjustment',
        method: 'test',
        reference: `pop:${user.id}`,
      })
      const { key } = await issueKey(gw.runtime.deps, { userId: user.id })
      for (let i = 0; i < 2; i++)
        await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(key), body: chatBody({ model: 'acme/mini' }) })
      await gw.settled()
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    const get = async (qs: string) => {
      const res = await browser(gw).get(`/api/public/models${qs}`)
      return { res, body: (await res.json()) as any }
    }
    const ids = async (qs: string) => (await get(qs)).body.items.map((m: any) => m.id)

    test('no auth; only available, non-deprecated models; the items carry what a catalog page shows', async () => {
      const { res, body } = await get('?sort=name-asc')
      expect(res.status).toBe(200)
      expect(body).toMatchObject({ total: 3, page: 1, pageSize: 20, totalPages: 1 })
      expect(body.items.map((m: any) => m.name)).toEqual(['Acme Mini', 'Chat 1', 'Zeta Big'])
      expect(body.items[2]).toEqual({
        id: 'zeta/big',
        name: 'Zeta Big',
        description: 'A LARGE context model',
        provider: 'zeta',
        family: 'big',
        contextWindow: 1_000_000,
        capabilities: ['text', 'vision'],
        pricing: { input: 5, output: 15, cacheRead: null, cacheWrite: null, unit: '1M_tokens', currency: 'USD' },
        created: expect.any(Number),
      })
      expect(Math.abs(body.items[2].created - Date.now() / 1000)).toBeLessThan(3_600)
      expect(JSON.stringify(body)).not.toContain('upstream-secret-model')
    })

    test('q: case-insensitive over name and description; quotes and LIKE wildcards are plain text', async () => {
      expect(await ids('?q=large')).toEqual(['zeta/big'])
      expect(await ids('?q=ZETA')).toEqual(['zeta/big'])
      expect(await ids('?q=mini&sort=name-asc')).toEqual(['acme/mini'])
      expect(await ids(`?q=${encodeURIComponent("' OR 1=1 --")}`)).toEqual(['acme/mini'])
      expect(await ids('?q=%25')).toEqual(['acme/mini'])
      expect(await ids('?q=_')).toEqual(['acme/mini'])
      expect(await ids('?q=_fast_')).toEqual(['acme/mini'])
      expect(await ids('?q=c_eap')).toEqual([])
      expect(await ids('?q=deprecated')).toEqual([])
      expect(await ids('?q=chat&sort=name-asc')).toEqual(['acme/chat-1'])
      expect((await get('?q=%20%20')).body.total).toBe(3)
    })

    test('filters: provider, capability, family (case-insensitive), combined', async () => {
      expect(await ids('?provider=ACME&sort=name-asc')).toEqual(['acme/mini', 'acme/chat-1'])
      expect(await ids('?capability=vision')).toEqual(['zeta/big'])
      expect(await ids('?capability=tool-calling&sort=name-asc')).toEqual(['acme/mini', 'acme/chat-1'])
      expect(await ids('?family=mini')).toEqual(['acme/mini'])
      expect(await ids('?provider=acme&capability=vision')).toEqual([])
      expect((await get('?provider=nobody')).body).toEqual({ items: [], total: 0, page: 1, pageSize: 20, totalPages: 0 })
    })

    test('sorts: popular (requests in the last 7 days), newest, price-asc, price-desc, context-desc, name-asc', async () => {
      expect((await ids('?sort=popular'))[0]).toBe('acme/mini')
      expect((await ids(''))[0]).toBe('acme/mini')
      expect(await ids('?sort=price-asc')).toEqual(['acme/mini', 'acme/chat-1', 'zeta/big'])
      expect(await ids('?sort=price-desc')).toEqual(['zeta/big', 'acme/chat-1', 'acme/mini'])
      expect(await ids('?sort=context-desc')).toEqual(['zeta/big', 'acme/chat-1', 'acme/mini'])
      const newest = (await get('?sort=newest')).body.items
      const created = newest.map((m: any) => m.created)
      expect([...created].sort((a: number, b: number) => b - a)).toEqual(created)
    })

    test('pages: page and pageSize slice the sorted list; past the end is empty', async () => {
      const second = await get('?sort=name-asc&pageSize=2&page=2')
      expect(second.body).toMatchObject({ total: 3, page: 2, pageSize: 2, totalPages: 2 })
      expect(second.body.items.map((m: any) => m.id)).toEqual(['zeta/big'])
      expect((await get('?sort=name-asc&pageSize=2&page=3')).body).toMatchObject({ items: [], total: 3, page: 3, totalPages: 2 })
      expect((await get('?pageSize=100')).res.status).toBe(200)
    })

    test('out-of-range parameters are a clear 400 BAD_REQUEST', async () => {
      for (const [qs, message] of [
        ['?page=0', 'page must be an integer from 1 to 1000000.'],
        ['?page=abc', 'page must be an integer from 1 to 1000000.'],
        ['?page=1.5', 'page must be an integer from 1 to 1000000.'],
        ['?pageSize=0', 'pageSize must be an integer from 1 to 100.'],
        ['?pageSize=101', 'pageSize must be an integer from 1 to 100.'],
        ['?sort=random', 'sort must be one of: popular, newest, price-asc, price-desc, context-desc, name-asc.'],
      ]) {
        const { res, body } = await get(qs!)
        expect(res.status).toBe(400)
        expect(body).toEqual({ error: { code: 'BAD_REQUEST', message } })
      }
      expect((await get(`?q=${'x'.repeat(201)}`)).res.status).toBe(400)
    })

    test('CDN cache headers and ETag revalidation', async () => {
      const b = browser(gw)
      const first = await b.get('/api/public/models?sort=name-asc')
      expect(first.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=300, stale-while-revalidate=600')
      expect(first.headers.get('content-type')).toContain('application/json')
      const etag = first.headers.get('etag')!
      expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/)
      const again = await b.fetch('/api/public/models?sort=name-asc', { headers: { 'if-none-match': etag } })
      expect(again.status).toBe(304)
      expect(await again.text()).toBe('')
      expect(again.headers.get('cache-control')).toContain('s-maxage')
      const other = await b.fetch('/api/public/models?sort=price-desc', { headers: { 'if-none-match': etag } })
      expect(other.status).toBe(200)
    })
  })
}

describe('OpenAPI document for /api', () => {
  let gw: TestGateway
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      ...CONSOLE_ENV,
      SANDBOX_PAYMENTS_SECRET: 'x-secret',
    })
  })
  afterAll(() => gw.stop())

  test('lists every console path with its models; the /v1 protocols are not in it', async () => {
    const res = await gw.request('/api/openapi/json')
    expect(res.status).toBe(200)
    const doc = await json(res)
    const paths = Object.keys(doc.paths)
    for (const p of [
      '/api/auth/register',
      '/api/auth/login',
      '/api/auth/logout',
      '/api/auth/me',
      '/api/keys',
      '/api/keys/{id}',
      '/api/wallet/account',
      '/api/wallet/transactions',
      '/api/wallet/transactions/{id}',
      '/api/wallet/topup',
      '/api/logs',
      '/api/logs/{id}',
      '/api/webhooks/{provider}',
      '/api/public/models',
      '/api/admin/refunds',
    ])
      expect(paths).toContain(p)
    expect(paths.filter((p) => p.startsWith('/v1'))).toEqual([])
    expect(JSON.stringify(doc.paths['/api/wallet/topup'].post.requestBody)).toContain('amount')
    expect(JSON.stringify(doc.paths['/api/public/models'].get.parameters)).toContain('pageSize')
    expect(doc.components.securitySchemes.session).toEqual({ type: 'apiKey', in: 'cookie', name: 'svc_session' })
    expect(doc.paths['/api/keys'].get.security).toEqual([{ session: [] }])
    expect(doc.paths['/api/public/models'].get.security).toBeUndefined()
    expect(doc.paths['/api/keys'].post.responses['201']).toBeDefined()
  })
})
