// The session cookie through Elysia's own jar (docs/console.md "Sessions"): its name and
// attributes, Secure only when asked, a clearing cookie with Max-Age=0, and only a non-empty
// string value read back as a token (Elysia decodes a `{…}` value as JSON).
import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { clearSessionCookie, SESSION_COOKIE, sessionToken, setSessionCookie } from '../../../src/console/http/cookies.ts'

const app = new Elysia()
  .get('/set', ({ cookie, query }) => {
    setSessionCookie(cookie, 'tok_123', 3600, query.secure === '1')
    return 'ok'
  })
  .get('/clear', ({ cookie, query }) => {
    clearSessionCookie(cookie, query.secure === '1')
    return 'ok'
  })
  .get('/read', ({ cookie }) => ({ token: sessionToken(cookie) ?? null }))

const call = (path: string, cookie?: string) => app.handle(new Request(`http://console.test${path}`, { headers: cookie ? { cookie } : {} }))
const attrs = (res: Response) => res.headers.get('set-cookie')!.split('; ')

describe('session cookie', () => {
  test('set: svc_session, HttpOnly, SameSite=Lax, Path=/, Max-Age; Secure only when asked', async () => {
    const plain = attrs(await call('/set'))
    expect(plain[0]).toBe(`${SESSION_COOKIE}=tok_123`)
    expect(plain.slice(1).sort()).toEqual(['HttpOnly', 'Max-Age=3600', 'Path=/', 'SameSite=Lax'])
    expect(attrs(await call('/set?secure=1'))).toContain('Secure')
  })

  test('clear: an empty value with Max-Age=0 and the same attributes', async () => {
    const a = attrs(await call('/clear?secure=1'))
    expect(a[0]).toBe(`${SESSION_COOKIE}=`)
    expect(a.slice(1).sort()).toEqual(['HttpOnly', 'Max-Age=0', 'Path=/', 'SameSite=Lax', 'Secure'])
  })

  test('read: the token when the cookie holds a non-empty string, else nothing', async () => {
    const read = async (cookie?: string) => ((await (await call('/read', cookie)).json()) as { token: string | null }).token
    expect(await read(`${SESSION_COOKIE}=abc_DEF-123`)).toBe('abc_DEF-123')
    expect(await read()).toBeNull()
    expect(await read(`${SESSION_COOKIE}=`)).toBeNull()
    expect(await read('other=abc')).toBeNull()
    // A JSON-looking value is decoded by Elysia into an object: not a token.
    expect(await read(`${SESSION_COOKIE}=${encodeURIComponent('{"a":1}')}`)).toBeNull()
  })
})
