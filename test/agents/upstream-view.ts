// What an upstream of each protocol was sent back after a tool call: the output the agent
// reported for `callId`, read from the protocol's own shape (chat: a `tool` message; messages:
// a `tool_result` block; responses: a `function_call_output` item).
import { expect } from 'bun:test'
import type { UpstreamProtocol } from './upstream-turns.ts'

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((c) => (typeof c === 'string' ? c : (c?.text ?? ''))).join('')
      : ''

export function toolOutputSent(protocol: UpstreamProtocol, body: any, callId: string): string | undefined {
  if (protocol === 'openai-chat') {
    const m = body.messages?.find((x: any) => x.role === 'tool' && x.tool_call_id === callId)
    return m && textOf(m.content)
  }
  if (protocol === 'anthropic-messages') {
    const blocks = (body.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
    const b = blocks.find((x: any) => x.type === 'tool_result' && x.tool_use_id === callId)
    return b && textOf(b.content)
  }
  const item = body.input?.find((x: any) => x.type === 'function_call_output' && x.call_id === callId)
  return item && textOf(item.output)
}

/** The key the upstream was called with: the gateway's own, never the agent's. */
export const upstreamKey = (headers: Record<string, string>): string | undefined => headers['x-api-key'] ?? headers.authorization

/** The agent's one call as the upstream saw it: the route's model name, the prompt, the gateway's own key. */
export function expectOneCallSeen(seen: readonly { body: any; headers: Record<string, string> }[], prompt: string): void {
  expect(seen).toHaveLength(1)
  expect(seen[0]!.body.model).toBe('upstream-model-name')
  expect(JSON.stringify(seen[0]!.body)).toContain(prompt)
  expect(upstreamKey(seen[0]!.headers)).toContain('sk-upstream-secret')
}
