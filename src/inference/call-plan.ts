// What a call will ask of its candidate models before it is admitted (docs/failover.md "Model
// fallbacks"): each candidate's usage estimate, and the reservation that covers the dearest of
// them, so whichever model answers, its bill fits what was held.
import { estimateUsage, reservationMicros } from '../billing/estimate.ts'
import type { CatalogModel } from '../catalog/catalog.ts'
import type { Usage } from '../core/usage.ts'
import type { Candidate } from './serve-chain.ts'

export interface PlannedCandidate extends Candidate {
  estimate: Usage
}

export interface CallPlan {
  chain: PlannedCandidate[]
  /**
   * What admission reserves for: the first candidate's id (its log row if nothing answers) at the
   * dearest candidate's prices and estimate, holding every candidate's routes (the lease waits for all).
   */
  admitted: { model: CatalogModel; estimate: Usage; reserveMicros: bigint }
}

export interface PromptEstimate {
  promptChars: number
  maxTokens: number | undefined
  choices: number
}

export function planCall(chain: CatalogModel[], est: PromptEstimate, defaultCap: number): CallPlan {
  const planned = chain.map((model) => {
    const estimate = estimateUsage(est.promptChars, {
      requested: est.maxTokens,
      choices: est.choices,
      defaultCap,
      contextWindow: model.contextWindow,
    })
    return { model, estimate, tokens: estimate.inputTokens + estimate.outputTokens }
  })
  let dearest = { ...planned[0]!, reserveMicros: -1n }
  for (const p of planned) {
    const reserveMicros = reservationMicros(p.estimate, p.model.pricing)
    if (reserveMicros > dearest.reserveMicros) dearest = { ...p, reserveMicros }
  }
  const first = planned[0]!.model
  const model = planned.length === 1 ? first : { ...first, pricing: dearest.model.pricing, routes: planned.flatMap((p) => p.model.routes) }
  return { chain: planned, admitted: { model, estimate: dearest.estimate, reserveMicros: dearest.reserveMicros } }
}
