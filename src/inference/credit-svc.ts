// The `svc` extension on the messages and responses protocols (docs/api.md "The svc extension"): cost in display credits,
// the credit symbol, the key's service mode, latency.
import type { Config } from '../config.ts'
import { formatScaled } from '../lib/money.ts'

export function creditSvc(
  config: Pick<Config, 'creditsPerUsd' | 'creditSymbol'>,
  costMicros: bigint,
  serviceMode: string,
  latencyMs: number,
): string {
  const credits = formatScaled(costMicros * BigInt(config.creditsPerUsd), 6, 8)
  return `{"cost":${credits},"currency":${JSON.stringify(config.creditSymbol)},"serviceMode":${JSON.stringify(serviceMode)},"latencyMs":${Math.round(latencyMs * 100) / 100}}`
}
