// The `svc` extension on chat-completions responses (SPEC "Extension object svc").
import { formatUsd } from '../../lib/money.ts'

export interface ChatSvc {
  costMicros: bigint
  latencyMs: number
  gateway: string
  upstreamRequestId: string
  usageSource: 'upstream' | 'none'
}

/** Written by hand so that `cost` is a JSON number with exactly 8 decimals (SPEC billing 6). */
export function encodeChatSvc(s: ChatSvc): string {
  return (
    `{"cost":${formatUsd(s.costMicros)},"latencyMs":${Math.round(s.latencyMs * 100) / 100},` +
    `"gateway":${JSON.stringify(s.gateway)},"upstreamRequestId":${JSON.stringify(s.upstreamRequestId)},` +
    `"usageSource":"${s.usageSource}"}`
  )
}

/** Appends `"svc":…` as the last member of a serialized JSON object. */
export function appendMember(objectJson: string, name: string, valueJson: string): string {
  const end = objectJson.lastIndexOf('}')
  const inner = objectJson.slice(0, end).trimEnd()
  const sep = inner.endsWith('{') ? '' : ','
  return `${inner}${sep}"${name}":${valueJson}}`
}
