// OpenAI chat chunks → canonical events. The finish reason arrives before the usage chunk, so
// the canonical `finish` is given at the end of the stream; an `error` chunk fails it, and
// nothing follows an error (OpenRouter still sends [DONE] after its error chunk).
import type { CEvent } from '../../core/canonical.ts'
import { fromChatFinish } from '../../core/stop-reasons.ts'
import { fromOpenAiChatUsage } from '../../core/usage.ts'
import { asList } from '../../lib/json.ts'
import type { StreamDecoder } from '../types.ts'
import { reasoningOf } from './response.ts'
import type { ChatChunkWire } from './wire.ts'

export function chatStreamDecoder(): StreamDecoder {
  let finish: unknown
  let refusal = false
  let done = false
  let failed = false
  const tools = new Set<number>()
  let id: string | undefined
  return {
    upstreamId: () => id,
    push(ev) {
      if (failed) return []
      if (ev.data === '[DONE]') {
        done = true
        return []
      }
      const chunk: ChatChunkWire = JSON.parse(ev.data)
      if (id === undefined && typeof chunk.id === 'string' && chunk.id) id = chunk.id
      const usage = fromOpenAiChatUsage(chunk.usage)
      // An error chunk may still report what the failed answer used (OpenRouter does): it is billed.
      if (chunk.error) {
        failed = true
        return [
          ...(usage ? [{ type: 'usage' as const, usage, final: true }] : []),
          { type: 'error', message: String(chunk.error.message ?? 'upstream error') },
        ]
      }
      const out: CEvent[] = []
      // Only the first choice is an answer (n > 1 cannot cross protocols).
      for (const c of asList(chunk.choices).filter((c) => (c?.index ?? 0) === 0)) {
        const d = c.delta ?? {}
        const reasoning = reasoningOf(d)
        if (reasoning) out.push({ type: 'reasoning', text: reasoning })
        if (typeof d.content === 'string' && d.content) out.push({ type: 'text', text: d.content })
        if (typeof d.refusal === 'string' && d.refusal) {
          refusal = true
          out.push({ type: 'text', text: d.refusal, refusal: true })
        }
        for (const tc of asList(d.tool_calls)) {
          const index = Number(tc.index ?? 0)
          if (!tools.has(index) && (tc.id || tc.function?.name)) {
            tools.add(index)
            out.push({ type: 'tool_call_start', index, id: String(tc.id ?? `call_${index}`), name: tc.function?.name ?? '' })
          }
          if (tc.function?.arguments && tools.has(index)) out.push({ type: 'tool_call_args', index, delta: tc.function.arguments })
        }
        if (c.finish_reason) finish = c.finish_reason
      }
      if (usage) out.push({ type: 'usage', usage, final: true })
      return out
    },
    end() {
      if (failed) return []
      if (finish === undefined && !done) throw new Error('stream ended before finish_reason')
      return [{ type: 'finish', stopReason: refusal ? 'refusal' : fromChatFinish(finish, tools.size > 0) }]
    },
  }
}
