// Google service-account auth (docs/providers.md "Vertex AI: Claude and Gemini"): the OAuth 2.0 JWT bearer grant
// (RFC 7523). A JWT signed RS256 with the key file's private key, asking for the cloud-platform
// scope, is exchanged at the token endpoint for an access token of about an hour, cached and
// shared by the gateway's calls.
import { importPKCS8, SignJWT } from 'jose'
import type { UpstreamAuth } from '../../core/gateway.ts'
import { bearerAuth } from './bearer-auth.ts'
import { AuthSpecError } from './spec.ts'
import { CredentialCache } from './token-cache.ts'
import { type Fetch, fetchToken } from './token-endpoint.ts'

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform'
const GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer'
const DEFAULT_TOKEN_URL = 'https://oauth2.googleapis.com/token'
/** The longest assertion Google accepts. */
const ASSERTION_SECONDS = 3600

interface ServiceAccountKey {
  client_email: string
  private_key: string
  private_key_id?: string
  token_uri?: string
}

/** The key file's fields used here; a file without them is named, not half-used. */
export function parseServiceAccount(text: string): ServiceAccountKey {
  let json: Partial<Record<keyof ServiceAccountKey, unknown>>
  try {
    json = JSON.parse(text)
  } catch {
    throw new AuthSpecError('the service account key is not JSON')
  }
  if (typeof json?.client_email !== 'string' || typeof json.private_key !== 'string')
    throw new AuthSpecError('the service account key has no client_email or private_key')
  return {
    client_email: json.client_email,
    private_key: json.private_key,
    private_key_id: typeof json.private_key_id === 'string' ? json.private_key_id : undefined,
    token_uri: typeof json.token_uri === 'string' ? json.token_uri : undefined,
  }
}

export async function googleServiceAccountAuth(
  spec: { credentials: string; tokenUrl?: string },
  fetchFn: Fetch,
  now: () => number,
): Promise<UpstreamAuth> {
  const sa = parseServiceAccount(spec.credentials)
  const key = await importPKCS8(sa.private_key, 'RS256').catch(() => {
    throw new AuthSpecError('the service account private_key is not a PKCS#8 RSA key')
  })
  const tokenUrl = spec.tokenUrl ?? sa.token_uri ?? DEFAULT_TOKEN_URL
  const grant = async () => {
    const iat = Math.floor(now() / 1000)
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(sa.private_key_id ? { kid: sa.private_key_id } : {}) })
      .setIssuer(sa.client_email)
      .setAudience(tokenUrl)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ASSERTION_SECONDS)
      .sign(key)
    return fetchToken(fetchFn, tokenUrl, { grant_type: GRANT, assertion }, now)
  }
  return bearerAuth('google-service-account', new CredentialCache(grant, now))
}
