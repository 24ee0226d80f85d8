// The console's routes (src/console-ui/index.ts) through app.handle: / redirects to /console,
// every /console path is the shell with a strict CSP, assets are served immutable by their
// hashed name, and an unknown asset is a 404 that is never cached.
import { expect, test } from 'bun:test'
import { consoleBundle } from '../../src/console-ui/build.ts'
import { consoleUi } from '../../src/console-ui/index.ts'

const app = consoleUi()
const get = (path: string) => app.handle(new Request(`http://gw.test${path}`))

test('/ redirects to /console', async () => {
  const res = await get('/')
  expect(res.status).toBe(302)
  expect(res.headers.get('location')).toBe('/console')
})

test.each(['/console', '/console/keys', '/console/admin/users/usr_1'])(
  '%s is the shell, uncached, same-origin only',
  async (path) => {
    const res = await get(path)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const { script } = await consoleBundle()
    expect(await res.text()).toContain(`src="${script.path}"`)
  },
  60_000,
)

test('the hashed assets are served immutable with their type', async () => {
  const { script, style } = await consoleBundle()
  for (const a of [script, style]) {
    const res = await get(a.path)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('content-type')).toBe(a.type)
    expect(await res.text()).toBe(a.body)
  }
}, 60_000)

test('an unknown asset (an old hash) is 404 and not stored', async () => {
  const res = await get('/console/assets/app-old.js')
  expect(res.status).toBe(404)
  expect(res.headers.get('cache-control')).toBe('no-store')
}, 60_000)

test('the favicon is served', async () => {
  expect((await get('/favicon.ico')).status).toBe(200)
})
