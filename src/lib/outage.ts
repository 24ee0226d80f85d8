// The one rule for "a backing service (Postgres or Redis) did not answer", as opposed to a fault
// of the request or of our code. Such a failure is answered 503 with Retry-After
// (docs/operations.md); anything else keeps its own answer. Pure: looks only at the error chain.
import { DeadlineError } from './deadline.ts'

/** Socket and driver codes of a server that cannot be reached or dropped the connection
 *  (Node/Bun errno codes; postgres.js's own CONNECT_TIMEOUT and CONNECTION_* codes). */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CONNECT_TIMEOUT',
  'ECONNRESET',
  'EPIPE',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
])

/** SQLSTATE prefixes of a Postgres that is going away or cannot take the work right now:
 *  class 08 (connection exception), 53 (insufficient resources), 57P01–57P03 (shutdown). */
const POSTGRES_STATES = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[123])$/

/** ioredis failures without a code: no connection (offline queue off, or closed), a command
 *  timeout, retries exhausted; and replies of a Redis that cannot serve writes now (loading,
 *  full under noeviction, failing over, read-only replica). */
const REDIS_MESSAGES =
  /^(Connection is closed|Stream isn't writeable|Cluster isn't ready|Command timed out|Reached the max retries per request|LOADING |OOM |MISCONF |CLUSTERDOWN |TRYAGAIN |READONLY |MASTERDOWN )/

export function isOutage(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e instanceof DeadlineError) return true
    const code = typeof e.code === 'string' ? e.code : ''
    if (UNREACHABLE_CODES.has(code) || POSTGRES_STATES.test(code)) return true
    if (typeof e.message === 'string' && REDIS_MESSAGES.test(e.message)) return true
  }
  return false
}
