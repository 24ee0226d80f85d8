// Why a gateway's auth could not authorize a request, as failover reads it: 401 when the cloud
// refused the credential (a bad key, a refused grant), 503 when the token service or credential
// source failed or could not be reached. The detail is for the log; it never holds a secret.
import type { AuthResult } from '../../core/gateway.ts'

export class AuthFailure extends Error {
  constructor(
    readonly status: 401 | 503,
    detail: string,
  ) {
    super(detail)
  }
}

/** A thrown failure as an AuthResult; anything else (a bug, a library's error) is a 503 with its text. */
export function authFailed(e: unknown): AuthResult {
  if (e instanceof AuthFailure) return { ok: false, status: e.status, detail: e.message }
  return { ok: false, status: 503, detail: `auth failed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300) }
}
