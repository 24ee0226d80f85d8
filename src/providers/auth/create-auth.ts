// The gateways' auth objects, one per gateway and kept while its spec is unchanged: a catalog
// reload with the same `auth` keeps the cached token or credentials, a changed one (a rotated key
// file) starts afresh (docs/providers.md "Cloud auth").
import type { UpstreamAuth } from '../../core/gateway.ts'
import { sha256Hex } from '../../lib/ids.ts'
import type { ChainDeps } from './aws-credentials.ts'
import { awsSigV4Auth } from './aws-sigv4.ts'
import { azureEntraAuth } from './azure-entra.ts'
import { googleServiceAccountAuth } from './google-service-account.ts'
import type { AuthSpec } from './spec.ts'

export type AuthDeps = ChainDeps

export async function createAuth(spec: AuthSpec, deps: AuthDeps): Promise<UpstreamAuth> {
  switch (spec.type) {
    case 'aws-sigv4':
      return awsSigV4Auth(spec, deps)
    case 'google-service-account':
      return googleServiceAccountAuth(spec, deps.fetch, deps.now)
    case 'azure-entra':
      return azureEntraAuth(spec, deps.fetch, deps.now)
  }
}

export class GatewayAuths {
  private readonly byGateway = new Map<string, { fingerprint: string; auth: Promise<UpstreamAuth> }>()

  constructor(private readonly deps: AuthDeps) {}

  /** The gateway's auth for this spec: the same object (and cache) as last time when the spec is the same. Rejects with an AuthSpecError. */
  for(gatewayId: string, spec: AuthSpec): Promise<UpstreamAuth> {
    const fingerprint = sha256Hex(JSON.stringify(spec))
    const known = this.byGateway.get(gatewayId)
    if (known?.fingerprint === fingerprint) return known.auth
    const auth = createAuth(spec, this.deps)
    this.byGateway.set(gatewayId, { fingerprint, auth })
    return auth
  }
}
