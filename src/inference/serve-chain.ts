// A call's candidate models in turn (docs/failover.md "Model fallbacks"): each model is served
// with its own routes and failover (upstream-call.ts); when every route of one failed, was skipped or the
// upstream said the prompt is too long, the next candidate is tried — for "too long" only one
// with a larger window. What answered is returned with the model that answered it.
import type { CatalogModel } from '../catalog/catalog.ts'
import { endedByCaller } from '../core/call-end.ts'
import { worthTrying } from './candidates.ts'
import { callUpstream, type Served, type UpstreamCallDeps, type UpstreamCallRequest } from './upstream-call.ts'

export interface Candidate {
  model: CatalogModel
  /** This model's token estimate (prompt and its output cap), for route tpm. */
  tokens: number
}

export async function serveChain<Body>(
  deps: UpstreamCallDeps,
  r: Omit<UpstreamCallRequest<Body>, 'model' | 'tokens'>,
  chain: Candidate[],
): Promise<{ served: Served; model: CatalogModel }> {
  let failed: { model: CatalogModel; err: unknown } | undefined
  for (const c of chain) {
    if (failed && !worthTrying(c.model, failed.model, failed.err)) continue
    if (failed) deps.router.log.info('falling back to another model', { requestId: r.requestId, from: failed.model.id, to: c.model.id })
    try {
      return { served: await callUpstream(deps, { ...r, model: c.model, tokens: c.tokens }), model: c.model }
    } catch (err) {
      if (endedByCaller(err) || r.life.ended) throw err
      failed = { model: c.model, err }
    }
  }
  throw failed!.err
}
