// The console session cookie (docs/console.md "Sessions"): svc_session, HttpOnly, SameSite=Lax, Path=/,
// Secure when the client reached us over TLS.

export const SESSION_COOKIE = 'svc_session'

export function readCookie(headers: Headers, name: string): string | undefined {
  const raw = headers.get('cookie')
  if (!raw) return undefined
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=')
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue
    try {
      return decodeURIComponent(part.slice(eq + 1).trim())
    } catch {
      return undefined
    }
  }
  return undefined
}

export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`
}

export const clearedSessionCookie = (secure: boolean) => sessionCookie('', 0, secure)
