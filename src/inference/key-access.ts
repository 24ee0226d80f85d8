// A key's allowlists on /v1 (docs/api.md "Key settings"): the client address (as TRUSTED_PROXIES
// resolves it, http/client.ts) and the model. A refusal is a 403 in the protocol's envelope,
// before admission: nothing is reserved or counted.
import type { KeyPrincipal } from '../auth/api-keys.ts'
import { GatewayError } from '../core/errors.ts'

/** Refuses a client address outside the key's ipAllowlist; `clientIp` is asked only when there is one. */
export function checkClientIp(principal: Pick<KeyPrincipal, 'allowsIp'>, clientIp: () => string | undefined): void {
  if (principal.allowsIp && !principal.allowsIp(clientIp()))
    throw new GatewayError('FORBIDDEN', 'This API key may not be used from this network address.')
}

/** Refuses a model outside the key's allowlist. */
export function checkModel(principal: Pick<KeyPrincipal, 'allowsModel'>, slug: string): void {
  if (!principal.allowsModel(slug)) throw new GatewayError('FORBIDDEN', `This API key may not call model '${slug}'.`, { param: 'model' })
}
