// A token auth: every request carries `Authorization: Bearer <token>` from the gateway's cache
// (Google service accounts, Entra ID). A key the protocol would send (`x-api-key`, `api-key`) is
// not added: the gateway has none.
import type { UpstreamAuth } from '../../core/gateway.ts'
import { authFailed } from './auth-failure.ts'
import type { CredentialCache } from './token-cache.ts'

export function bearerAuth(type: UpstreamAuth['type'], tokens: CredentialCache<string>): UpstreamAuth {
  return {
    type,
    async authorize(req) {
      try {
        const token = await tokens.get()
        return { ok: true, headers: { ...req.headers, authorization: `Bearer ${token}` } }
      } catch (e) {
        return authFailed(e)
      }
    },
  }
}
