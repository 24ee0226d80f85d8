// The start of every gateway call, shared by every protocol: authenticate the key, resolve the
// model, admit (rate window + reservation in one store round trip). Settlement is billing's
// (billing/settlement.ts).
import { type ApiKeyAuth, keyFromHeaders, type KeyPrincipal } from '../auth/api-keys.ts'
import { loadMirror } from '../billing/mirror.ts'
import { reservationMicros } from '../billing/estimate.ts'
import type { SettleRescue } from '../billing/settle-rescue.ts'
import type { SettlingCall } from '../billing/settlement.ts'
import type { CallLife } from './call-life.ts'
import type { Catalog, CatalogModel } from '../catalog/catalog.ts'
import type { Config } from '../config.ts'
import type { Db } from '../db/client.ts'
import { GatewayError, serviceUnavailable } from '../core/errors.ts'
import type { ModelKind } from '../core/gateway.ts'
import type { Usage } from '../core/usage.ts'
import { rateHeaders } from '../http/rate-headers.ts'
import { withDeadline } from '../lib/deadline.ts'
import type { CallObserver } from '../observability/call-observer.ts'
import type { RateInfo, Store } from '../store/types.ts'
import type { InFlight } from './inflight.ts'
import { leaseFor } from './lease.ts'

export async function authenticate(auth: Pick<ApiKeyAuth, 'verify'>, headers: Headers): Promise<KeyPrincipal> {
  // Postgres unreachable and the key not cached (not even stale): 503, never a 500 or a hang.
  const principal = await auth.verify(keyFromHeaders(headers)).catch((e) => Promise.reject(serviceUnavailable(e)))
  if (!principal) throw new GatewayError('UNAUTHORIZED', 'Invalid, revoked or expired API key.')
  return principal
}

/** The catalog model of `slug`, refused when unknown, unavailable or of another kind than the route serves (docs/api.md "Embeddings"). */
export function resolveModel(catalog: Pick<Catalog, 'lookup'>, slug: string, kind: ModelKind = 'chat'): CatalogModel {
  const found = catalog.lookup(slug)
  if (found.ok && found.model.kind === kind) return found.model
  if (found.ok) throw kindMismatch(slug, kind)
  if (found.reason === 'unknown') throw new GatewayError('MODEL_NOT_FOUND', `Model '${slug}' does not exist.`, { param: 'model' })
  throw new GatewayError('MODEL_UNAVAILABLE', `Model '${slug}' is currently unavailable.`, { param: 'model' })
}

function kindMismatch(slug: string, wanted: ModelKind): GatewayError {
  const message =
    wanted === 'embedding'
      ? `Model '${slug}' is a chat model, not an embedding model; it cannot be used with POST /v1/embeddings.`
      : `Model '${slug}' is an embedding model; call POST /v1/embeddings with it.`
  return new GatewayError('BAD_REQUEST', message, { param: 'model' })
}

/** An admitted call: what settlement needs, plus its rate window and estimate. */
export interface Call extends SettlingCall {
  principal: KeyPrincipal
  model: CatalogModel
  estimate: Usage
  rate: RateInfo
  /** When the lease taken at admission ends (epoch ms, deps.now's clock). */
  leaseDeadlineMs: number
  /** Metrics and trace of this call. */
  obs: CallObserver
  /** How the call ends (inference/call-life.ts). */
  life: CallLife
}

export interface AdmitDeps {
  db: Db
  store: Store
  /** Its account mirror is dropped when an admit has no answer (docs/operations.md). */
  rescue: Pick<SettleRescue, 'dropMirror'>
  inflight: InFlight
  now: () => number
  config: Pick<Config, 'dbRequestTimeoutMs'>
}

/** Rate window + reservation. A rejected request reserves nothing (docs/api.md "Rate windows"). */
export async function admit(deps: AdmitDeps, c: Omit<Call, 'reservedMicros' | 'rate' | 'settled' | 'leaseDeadlineMs'>): Promise<Call> {
  const reserveMicros = reservationMicros(c.estimate, c.model.pricing)
  const input = {
    userId: c.principal.userId,
    keyId: c.principal.keyId,
    rpm: c.principal.rpm,
    nowMs: deps.now(),
    reserveMicros,
    keyLimitMicros: c.principal.limitMicros,
    lease: leaseFor(c, deps.now()),
  }
  // Counted before the first await, so a drain that starts now waits for this call (docs/drain.md).
  if (deps.inflight.draining)
    throw new GatewayError('SHUTTING_DOWN', 'This instance is shutting down; retry the request.', { headers: { 'retry-after': '1' } })
  deps.inflight.calls++
  // Redis or (for a cold account) Postgres unreachable: a fast 503 with Retry-After. An admit
  // without an answer may still reserve later, so its lease is ended and the account's mirror
  // dropped after it.
  const storeAdmit = () =>
    timedAdmit(deps, c.obs, input).catch((e) => {
      deps.rescue.dropMirror(input.userId, input.lease.id)
      return Promise.reject(serviceUnavailable(e))
    })
  let result
  try {
    result = await storeAdmit()
    if (!result.ok && result.reason === 'cold') {
      const load = loadMirror(deps.db, deps.store, c.principal.userId, c.principal.keyId)
      await withDeadline(load, deps.config.dbRequestTimeoutMs, 'account load').catch((e) => Promise.reject(serviceUnavailable(e)))
      result = await storeAdmit()
    }
  } catch (e) {
    deps.inflight.callEnded()
    throw e
  }
  if (result.ok) {
    c.obs.reserve(reserveMicros)
    return { ...c, reservedMicros: reserveMicros, rate: result.rate, settled: false, leaseDeadlineMs: input.lease.deadlineMs }
  }
  deps.inflight.callEnded()
  if (result.reason === 'cold') throw serviceUnavailable(new Error('account still cold after load'))
  c.obs.refused(result.reason === 'rate' ? 'rate_limit' : result.reason)
  const headers = rateHeaders(result.rate, result.reason === 'rate')
  if (result.reason === 'rate')
    throw new GatewayError('RATE_LIMITED', `Rate limit of ${result.rate.limit} requests per minute exceeded for this API key.`, { headers })
  if (result.reason === 'balance')
    throw new GatewayError('PAYMENT_REQUIRED', 'Insufficient account balance for this request; top up your credit.', { headers })
  throw new GatewayError('PAYMENT_REQUIRED', "This API key's spend limit would be exceeded by this request.", { headers })
}

async function timedAdmit(deps: AdmitDeps, obs: CallObserver, input: Parameters<Store['admit']>[0]) {
  const t = performance.now()
  try {
    const result = await deps.store.admit(input)
    obs.storeTrip('admit', t, true)
    return result
  } catch (e) {
    obs.storeTrip('admit', t, false)
    throw e
  }
}
