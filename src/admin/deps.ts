// What the admin API uses (createApp's dependencies fit it as they are).
import type { ApiKeyAuth } from '../auth/api-keys.ts'
import type { Catalog } from '../catalog/catalog.ts'
import type { Config } from '../config.ts'
import type { Db } from '../db/client.ts'
import type { Router } from '../routing/router.ts'
import type { Logger } from '../lib/log.ts'
import type { Store } from '../store/types.ts'

export interface AdminDeps {
  db: Db
  store: Store
  /** POST /catalog/reload reloads the running catalog and reports unset key variables; GET /catalog shows it. */
  /** Key model allowlists are checked against every model of the catalog (`all`). */
  catalog: Pick<Catalog, 'refresh' | 'unresolvedSecrets' | 'authProblems' | 'all'>
  /** Disabling a user or revoking a key drops it from this instance's key cache at once. */
  auth: Pick<ApiKeyAuth, 'invalidate' | 'invalidateUser'>
  config: Pick<Config, 'adminToken' | 'trustedProxies' | 'maxBodyBytes' | 'catalogFile' | 'publicUrl' | 'defaultRpm'>
  /** The breakers the gateways view reads (routing/breakers.ts `health`, read-only). */
  router: Pick<Router, 'breakers' | 'cooling' | 'load'>
  /** Calls open on this instance (inference/inflight.ts counts them). */
  inflight: { readonly calls: number }
  log: Logger
  now: () => number
}
