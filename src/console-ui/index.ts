// The browser console (docs/console-ui.md): `/` redirects to `/console`, every
// `/console/*` path answers the same HTML shell, and the client bundle is served from
// `/console/assets/` under content-hashed names. The pages talk only to the /api/* console API
// with the svc_session cookie.
import { Elysia } from 'elysia'
import { consoleBundle, type Asset } from './build.ts'
import { faviconResponse } from './favicon.ts'
import { shellHtml } from './shell.ts'

/** Same-origin only: no CDN, no inline script, no framing. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
}

const page = async () =>
  new Response(shellHtml(await consoleBundle()), {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...SECURITY_HEADERS },
  })

const asset = (a: Asset) =>
  new Response(a.body, { headers: { 'content-type': a.type, 'cache-control': 'public, max-age=31536000, immutable', ...SECURITY_HEADERS } })

export function consoleUi() {
  return new Elysia({ name: 'console-ui' })
    .get('/', ({ redirect }) => redirect('/console', 302), { detail: { hide: true } })
    .get('/console', page, { detail: { hide: true } })
    .get('/favicon.ico', faviconResponse, { detail: { hide: true } })
    .get(
      '/console/assets/:file',
      async ({ params }) => {
        const bundle = await consoleBundle()
        const found = [bundle.script, bundle.style].find((a) => a.path === `/console/assets/${params.file}`)
        return found ? asset(found) : new Response('Not found', { status: 404, headers: { 'cache-control': 'no-store' } })
      },
      { detail: { hide: true } },
    )
    .get('/console/*', page, { detail: { hide: true } })
}
