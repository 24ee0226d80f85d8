// The `svc` extension on chat-completions responses (docs/api.md "The svc extension").
import { formatUsd } from '../../lib/money.ts'

export interface ChatSvc {
  costMicros: bigint
  latencyMs: number
  gateway: string
  upstreamRequestId: string
  usageSource: 'upstream' | 'none'
}

/** Written by hand so that `cost` is a JSON number with exactly 8 decimals (docs/api.md "Money"). */
export function encodeChatSvc(s: ChatSvc): string {
  return (
    `{"cost":${formatUsd(s.costMicros)},"latencyMs":${Math.round(s.latencyMs * 100) / 100},` +
    `"gateway":${JSON.stringify(s.gateway)},"upstreamRequestId":${JSON.stringify(s.upstreamRequestId)},` +
    `"usageSource":"${s.usageSource}"}`
  )
}
