// Microsoft Entra ID auth (docs/providers.md "Azure OpenAI with Entra ID"): the OAuth 2.0 client
// credentials grant for an app registration, its token cached and shared by the gateway's calls.
// Azure OpenAI takes it as `Authorization: Bearer` in place of the `api-key` header.
import type { UpstreamAuth } from '../../core/gateway.ts'
import { bearerAuth } from './bearer-auth.ts'
import { CredentialCache } from './token-cache.ts'
import { type Fetch, fetchToken } from './token-endpoint.ts'

const DEFAULT_SCOPE = 'https://cognitiveservices.azure.com/.default'

export function azureEntraAuth(
  spec: { tenantId: string; clientId: string; clientSecret: string; tokenUrl?: string; scope?: string },
  fetchFn: Fetch,
  now: () => number,
): UpstreamAuth {
  const tokenUrl = spec.tokenUrl ?? `https://login.microsoftonline.com/${encodeURIComponent(spec.tenantId)}/oauth2/v2.0/token`
  const form = {
    grant_type: 'client_credentials',
    client_id: spec.clientId,
    client_secret: spec.clientSecret,
    scope: spec.scope ?? DEFAULT_SCOPE,
  }
  return bearerAuth('azure-entra', new CredentialCache(() => fetchToken(fetchFn, tokenUrl, form, now), now))
}
