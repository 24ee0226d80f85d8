// What the upstream charged for a model's calls through one gateway (docs/operators.md
// "Reports"): the route's `cost` prices (nano-USD per 1M tokens) applied to the tokens summed
// over the period, rounded up once to a whole micro-USD — as billing prices one call. A route
// without a cost, or a gateway no route of the model names any more, is unknown (null), never
// zero. Cache tokens without a cache price pay the input price, as in billing/pricing.ts. Pure.
import { ceilDiv } from '../../lib/money.ts'
import type { RouteCost } from '../route-cost.ts'

export interface Tokens {
  input: bigint
  output: bigint
  cacheRead: bigint
  cacheWrite: bigint
}

export type { RouteCost }

const DIVISOR = 1_000_000_000n

export function upstreamCostMicros(tokens: Tokens, cost: RouteCost | undefined): bigint | null {
  if (!cost || cost.input === null || cost.output === null) return null
  const read = cost.cacheRead ?? cost.input
  const write = cost.cacheWrite ?? cost.input
  return ceilDiv(tokens.input * cost.input + tokens.output * cost.output + tokens.cacheRead * read + tokens.cacheWrite * write, DIVISOR)
}

/** The sum of known amounts, or null when any is unknown. */
export function sumKnown(amounts: readonly (bigint | null)[]): bigint | null {
  let total = 0n
  for (const a of amounts) {
    if (a === null) return null
    total += a
  }
  return total
}
