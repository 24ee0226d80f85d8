// The models one call may be served by (docs/failover.md "Model fallbacks"): the requested
// `model`, then the request's `models` (OpenRouter's convention) — or, when the request sends
// none, the model's catalog `fallbacks`. Unknown slugs the client named are its mistake (the
// protocol's not-found answer); an unavailable one, or any the catalog names that cannot serve,
// is passed over. A prompt that cannot fit a candidate's window leaves that candidate out.
import { type Catalog, type CatalogModel, refusalOf } from '../catalog/catalog.ts'
import type { ModelKind } from '../core/gateway.ts'
import { contextLengthError, promptCannotFit } from '../core/context-window.ts'
import { GatewayError } from '../core/errors.ts'
import { invalidBody } from '../protocols/common/parse.ts'

/** At most this many slugs in a request's `models`. */
export const MAX_REQUESTED_MODELS = 8

/**
 * The body without `models` (never sent upstream) and with `model` filled from it when absent,
 * and the slugs it listed. A malformed `models` is the client's 422.
 */
export function takeModels(raw: unknown): { raw: unknown; models: string[] | undefined } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !('models' in raw)) return { raw, models: undefined }
  const { models, ...rest } = raw as Record<string, unknown>
  const ok =
    Array.isArray(models) &&
    models.length > 0 &&
    models.length <= MAX_REQUESTED_MODELS &&
    models.every((m) => typeof m === 'string' && m.length > 0)
  if (!ok) throw invalidBody([{ path: 'models', message: `Expected an array of 1 to ${MAX_REQUESTED_MODELS} model ids` }])
  if (rest.model === undefined) rest.model = models[0]
  return { raw: rest, models: models as string[] }
}

/** What a call asks of the catalog: its model, the request's `models`, the kind its protocol serves. */
export interface ChainAsk {
  model: string
  models: string[] | undefined
  kind: ModelKind
  /** What must fit the context window. */
  fitChars: number
  /** The key's model allowlist (docs/api.md "Key settings"): fallbacks included. */
  allows: (modelId: string) => boolean
}

/**
 * The call's candidates in order, duplicates dropped: available, allowed to the key, and fitting
 * its prompt. Throws the first model's error when none is available and allowed (a model whose
 * routes are all off, with no fallback the key may use, is unavailable like one without
 * fallbacks), and the first allowed one's context-length error when none fits.
 */
export function candidates(catalog: Pick<Catalog, 'lookup'>, ask: ChainAsk): CatalogModel[] {
  const first = catalog.lookup(ask.model)
  const listed = ask.models ?? (first.ok || first.reason === 'unavailable' ? first.model.fallbacks : [])
  const out: CatalogModel[] = []
  // Duplicates dropped; a model without fallbacks (the usual call) needs no set for that.
  for (const slug of listed.length === 0 ? [ask.model] : new Set([ask.model, ...listed])) {
    const found = catalog.lookup(slug)
    // A model of another kind (an embedding model on a chat protocol, or the reverse) is named
    // only when the client asked for it; a catalog fallback of another kind is passed over.
    if (found.ok && found.model.kind === ask.kind) {
      if (ask.allows(slug)) out.push(found.model)
    } else if ((found.ok || found.reason === 'unknown') && (slug === ask.model || ask.models)) throw refusalOf(slug, found, ask.kind)
  }
  if (out.length === 0) {
    if (!first.ok || first.model.kind !== ask.kind) throw refusalOf(ask.model, first, ask.kind)
    throw new GatewayError('FORBIDDEN', `This API key may not call model '${ask.model}'.`, { param: 'model' })
  }
  const fit = out.filter((m) => !promptCannotFit(ask.fitChars, m.contextWindow))
  if (fit.length === 0) throw contextLengthError(out[0]!.contextWindow)
  return fit
}

/** After a candidate failed, whether `next` is worth trying: a "too long" answer needs a larger window. */
export function worthTrying(next: CatalogModel, failed: CatalogModel, err: unknown): boolean {
  if (!(err instanceof GatewayError)) return false
  if (err.code === 'CONTEXT_LENGTH_EXCEEDED') return next.contextWindow > failed.contextWindow
  return FAILED_OVER.has(err.code)
}

/** A candidate ended in one of these: its routes were spent, the next model may answer. */
const FAILED_OVER = new Set(['UPSTREAM_ERROR', 'UPSTREAM_TIMEOUT', 'UPSTREAM_UNAVAILABLE'])
