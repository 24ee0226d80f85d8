// An OAuth 2.0 token endpoint (RFC 6749 §5): a form POST answered with `access_token` and
// `expires_in` seconds. Used by the Google JWT bearer grant and Entra's client credentials grant.
// The endpoint's error text goes to the failure's detail (the log), never to a client; the token
// itself goes nowhere but the cache.
import { AuthFailure } from './auth-failure.ts'
import type { Expiring } from './token-cache.ts'

export type Fetch = (url: string, init: RequestInit) => Promise<Response>

const TIMEOUT_MS = 10_000

export async function fetchToken(
  fetchFn: Fetch,
  tokenUrl: string,
  form: Record<string, string>,
  now: () => number,
): Promise<Expiring<string>> {
  const fetchedAt = now()
  let res: Response
  try {
    res = await fetchFn(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch (e) {
    throw new AuthFailure(503, `token endpoint unreachable: ${String(e)}`)
  }
  const text = await res.text().catch(() => '')
  if (!res.ok)
    throw new AuthFailure(
      res.status >= 500 || res.status === 429 ? 503 : 401,
      `token endpoint answered ${res.status}: ${text.slice(0, 300)}`,
    )
  const json = parseJson(text) as { access_token?: unknown; expires_in?: unknown } | undefined
  const token = json?.access_token
  const seconds = Number(json?.expires_in)
  if (typeof token !== 'string' || token === '' || !Number.isFinite(seconds) || seconds <= 0)
    throw new AuthFailure(503, 'token endpoint answered without access_token and expires_in')
  return { value: token, expiresAt: fetchedAt + seconds * 1000, fetchedAt }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
