// Console request guards: per-IP limits in the shared store (SPEC "Limits" 2, 3) and the
// cross-site check on state-changing calls.
import { GatewayError } from '../core/errors.ts'
import { rateHeaders } from '../http/rate-headers.ts'
import type { Store } from '../store/types.ts'

export const API_LIMIT = { limit: 120, windowMs: 60_000 }
export const AUTH_LIMIT = { limit: 30, windowMs: 15 * 60_000 }

export async function limitIp(store: Store, bucket: string, rule: { limit: number; windowMs: number }, nowMs: number): Promise<Record<string, string>> {
  const { ok, rate } = await store.hit(bucket, rule.limit, rule.windowMs, nowMs)
  if (!ok) throw new GatewayError('RATE_LIMITED', 'Too many requests from this address; retry after the time in Retry-After.', { headers: rateHeaders(rate, true) })
  return rateHeaders(rate)
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Browsers send Origin on cross-site writes; a write whose Origin is not this service (or
 * PUBLIC_URL) is refused. Sec-Fetch-Site covers browsers that omit Origin. Non-browser clients
 * (no Origin, no Sec-Fetch-Site) are not cookie-bearing cross-site requests and pass.
 */
export function checkSameOrigin(req: Request, url: URL, publicUrl: string | undefined): void {
  if (SAFE.has(req.method)) return
  const origin = req.headers.get('origin')
  const allowed = new Set([url.origin, publicUrl ? new URL(publicUrl).origin : url.origin])
  const host = req.headers.get('host')
  if (host) allowed.add(`${url.protocol}//${host}`)
  if (origin !== null && origin !== 'null' && allowed.has(origin)) return
  const site = req.headers.get('sec-fetch-site')
  if (origin === null && (site === null || site === 'same-origin' || site === 'none')) return
  throw new GatewayError('FORBIDDEN', 'Cross-site request refused.')
}
