// The console session cookie (docs/console.md "Sessions"): svc_session, HttpOnly, SameSite=Lax,
// Path=/, Secure when the client reached us over TLS. Read and written through Elysia's own
// cookie jar (the context's `cookie`); these are only its name and attributes.
import type { Context } from 'elysia'

export const SESSION_COOKIE = 'svc_session'

type Jar = Context['cookie']

/** The session token the browser sent, if it is one: Elysia decodes a `{…}` or `[…]` value as JSON. */
export function sessionToken(jar: Jar): string | undefined {
  const value = jar[SESSION_COOKIE]?.value
  return typeof value === 'string' && value !== '' ? value : undefined
}

export function setSessionCookie(jar: Jar, token: string, maxAgeSeconds: number, secure: boolean): void {
  jar[SESSION_COOKIE]!.set({ value: token, path: '/', httpOnly: true, sameSite: 'lax', maxAge: maxAgeSeconds, secure })
}

/** Clears the cookie in the browser, whether or not this request carried it. */
export function clearSessionCookie(jar: Jar, secure: boolean): void {
  jar[SESSION_COOKIE]!.set({ value: '', path: '/', httpOnly: true, sameSite: 'lax', maxAge: 0, secure })
}
