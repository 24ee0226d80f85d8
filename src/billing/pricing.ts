// Cost of a call (docs/api.md "Pricing"): exact integer arithmetic on
// nano-USD-per-1M-token prices, rounded up once to a whole micro-USD.
import { ceilDiv } from '../lib/money.ts'
import type { ModelKind } from '../core/gateway.ts'
import type { Usage } from '../core/usage.ts'

/** nano-USD per 1M tokens; null = no price (cache prices null = the model has no cache pricing). */
export interface Pricing {
  input: bigint | null
  output: bigint | null
  cacheRead: bigint | null
  cacheWrite: bigint | null
}

/** tokens × (nano-USD per 1M tokens) → micro-USD needs ÷ 10^6 (per-M) × ÷ 10^3 (nano→micro). */
const DIVISOR = 1_000_000_000n

/** A chat model needs input and output prices; an embedding model produces no output and has an input price only. */
export const isPriced = (p: Pricing, kind: ModelKind = 'chat'): boolean => p.input !== null && (kind === 'embedding' || p.output !== null)

/**
 * Cache terms apply only when the model prices them; otherwise cached tokens are ordinary
 * input tokens and pay the input price.
 */
export function costMicros(usage: Usage, p: Pricing): bigint {
  const input = p.input ?? 0n
  const read = p.cacheRead ?? input
  const write = p.cacheWrite ?? input
  const total =
    BigInt(usage.inputTokens) * input +
    BigInt(usage.outputTokens) * (p.output ?? 0n) +
    BigInt(usage.cacheReadTokens) * read +
    BigInt(usage.cacheWriteTokens) * write
  return ceilDiv(total, DIVISOR)
}
