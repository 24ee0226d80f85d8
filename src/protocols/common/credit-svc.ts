// The `svc` extension on the messages and responses protocols (docs/api.md "The svc extension"): cost in display credits,
// the credit symbol, the key's service mode, latency.
import { formatScaled } from '../../lib/money.ts'

/** How display credits are shown (from config: CREDITS_PER_USD, CREDIT_SYMBOL). */
export interface CreditDisplay {
  creditsPerUsd: number
  creditSymbol: string
}

export function creditSvc(display: CreditDisplay, costMicros: bigint, serviceMode: string, latencyMs: number): string {
  const credits = formatScaled(costMicros * BigInt(display.creditsPerUsd), 6, 8)
  return `{"cost":${credits},"currency":${JSON.stringify(display.creditSymbol)},"serviceMode":${JSON.stringify(serviceMode)},"latencyMs":${Math.round(latencyMs * 100) / 100}}`
}
