// How the console is served (docs/console-ui.md "How it is built"): / redirects to /console, every
// console path answers the same shell, the bundle is built in memory and served same-origin under
// content-hashed names, nothing loads from another origin, and the page stays small. Plus the
// console API additions the pages use: the request-log status filter and the sandbox checkout's way
// back.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { Glob } from 'bun'
import { issueKey } from '../../src/auth/issue-key.ts'
import { bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { CONSOLE_ENV, json, signUp } from '../console/helpers.ts'

/** Page weight budget, gzipped (docs/console-ui.md "Page weight"). */
const BUDGET_BYTES = 30_000

describe('console UI serving', () => {
  let gw: TestGateway
  let up: FakeUpstream
  beforeAll(async () => {
    up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: up.url }]), {
      ...CONSOLE_ENV,
      SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-serving',
    })
  })
  afterAll(async () => {
    await gw.stop()
    up.stop()
  }, 30_000)

  test('/ redirects to /console; every console path is the same shell with a strict CSP', async () => {
    const root = await gw.request('/')
    expect(root.status).toBe(302)
    expect(root.headers.get('location')).toBe('/console')
    const pages = await Promise.all(
      ['/console', '/console/keys', '/console/transactions/txn_x', '/console/nowhere'].map((p) => gw.request(p)),
    )
    const bodies = await Promise.all(pages.map((r) => r.text()))
    for (const r of pages) {
      expect(r.status).toBe(200)
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(r.headers.get('content-security-policy')).toContain("script-src 'self'")
    }
    expect(new Set(bodies).size).toBe(1)
    const html = bodies[0]!
    expect(html).toContain('<main id="main"')
    expect(html).toContain('<nav aria-label="Console">')
    // Nothing from another origin (works offline, no CDN): every src/href is a local path.
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    expect(refs.length).toBeGreaterThan(5)
    for (const ref of refs) expect(ref).toMatch(/^(\/|#)/)
  })

  test('the bundle: hashed names cached for good, unknown assets 404, total weight within budget', async () => {
    const html = await (await gw.request('/console')).text()
    const script = /src="(\/console\/assets\/app-\w+\.js)"/.exec(html)![1]!
    const style = /href="(\/console\/assets\/app-\w+\.css)"/.exec(html)![1]!
    const js = await gw.request(script)
    const css = await gw.request(style)
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toContain('javascript')
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(css.headers.get('content-type')).toContain('text/css')
    const jsText = await js.text()
    // No URL to fetch from anywhere (the SVG namespace is a name, not a fetch).
    expect(jsText.replaceAll('http://www.w3.org/2000/svg', '').match(/https?:\/\/[^"'`\s]*/g)).toBeNull()
    expect((await gw.request('/console/assets/app-nope.js')).status).toBe(404)
    const gz = (s: string) => gzipSync(s).length
    const weight = gz(html) + gz(jsText) + gz(await css.text())
    if (process.env.TEST_LOG_LEVEL)
      console.log(
        `console page weight: ${weight} bytes gzipped (html ${gz(html)}, js ${gz(jsText)}, css ${gz(await (await gw.request(style)).text())})`,
      )
    expect(weight).toBeLessThan(BUDGET_BYTES)
    // The console pages stay out of the API document.
    const doc = await json(gw.request('/api/openapi/json'))
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/'))).toEqual([])
  })

  test('the client runs in the browser: it imports nothing outside src/console-ui/client', () => {
    const client = resolve(import.meta.dir, '../../src/console-ui/client')
    const files = [...new Glob('**/*.ts').scanSync({ cwd: client })]
    expect(files.length).toBeGreaterThan(10)
    const imports = files.flatMap((f) =>
      [...readFileSync(join(client, f), 'utf8').matchAll(/^(?:import|export)\s[^\n]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => ({
        f,
        spec: m[1]!,
      })),
    )
    expect(imports.length).toBeGreaterThan(40)
    const outside = imports
      .filter(({ f, spec }) => !spec.startsWith('.') || relative(client, resolve(dirname(join(client, f)), spec)).startsWith('..'))
      .map(({ f, spec }) => `${f} → ${spec}`)
    expect(outside).toEqual([])
  })

  test('request logs filter by status (success/error); anything else is a 400 naming it', async () => {
    const u = await signUp(gw)
    const { key } = await gw.user(0)
    // A call by someone else, and the user's own: a refused one (no credit) is still logged.
    const own = await issueKey(gw.runtime.deps, { userId: u.id })
    expect((await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(own.key), body: chatBody() })).status).toBe(402)
    expect((await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(key), body: chatBody() })).status).toBe(402)
    await gw.settled()
    const errors = await json(u.get('/api/logs?status=error'))
    expect(errors.items).toHaveLength(1)
    expect(errors.items[0]).toMatchObject({ keyId: own.id, status: 402 })
    expect((await json(u.get('/api/logs?status=success'))).items).toEqual([])
    const bad = await u.get('/api/logs?status=teapot')
    expect(bad.status).toBe(400)
    expect(await json(bad)).toEqual({ error: { code: 'BAD_REQUEST', message: 'status must be one of: success, error.' } })
  })

  test('a top-up comes back to the console: the sandbox checkout links to the return page', async () => {
    const u = await signUp(gw)
    const started = await json(u.post('/api/wallet/topup', { amount: 10, provider: 'sandbox' }))
    const page = await (await u.get(new URL(started.checkoutUrl).pathname)).text()
    expect(page).toContain(`href="/console/topup/return?topup=${started.transactionId}"`)
  })
})
