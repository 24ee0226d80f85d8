// OpenAI chat chunks → canonical events. The finish reason arrives before the usage chunk, so
// the canonical `finish` is given at the end of the stream; an `error` chunk fails it, and
// nothing follows an error (OpenRouter still sends [DONE] after its error chunk).
import type { CEvent } from '../../core/canonical.ts'
import { fromChatFinish } from '../../core/stop-reasons.ts'
import { fromOpenAiChatUsage, type ReportedUsage } from '../../core/usage.ts'
import { asList } from '../../lib/json.ts'
import { DONE } from '../../lib/wire.ts'
import { withStatus } from '../stream-error-status.ts'
import type { StreamDecoder } from '../types.ts'
import { reasoningOf } from './response.ts'
import { type ChatChoiceWire, type ChatChunkWire, parseChatEvent } from './wire.ts'

/** What a chunk shows the client, every choice included (a pass-through forwards them all). */
function chunkChars(choices: ChatChoiceWire[]): number {
  let n = 0
  for (const c of choices) {
    const d = c.delta
    if (!d) continue
    if (typeof d.content === 'string') n += d.content.length
    n += reasoningOf(d)?.length ?? 0
    if (typeof d.refusal === 'string') n += d.refusal.length
    for (const tc of asList(d.tool_calls)) n += tc.function?.arguments?.length ?? 0
  }
  return n
}

export function chatStreamDecoder(): StreamDecoder<ChatChunkWire> {
  let finish: unknown
  let finished = false
  let refusal = false
  let done = false
  let failed = false
  let reported: ReportedUsage | undefined
  let chars = 0
  const tools = new Set<number>()
  let id: string | undefined
  return {
    parse: parseChatEvent,
    upstreamId: () => id,
    usage: () => reported,
    deliveredChars: () => chars,
    read(chunk) {
      if (failed) return []
      if (chunk === DONE) {
        done = true
        return []
      }
      if (id === undefined && typeof chunk.id === 'string' && chunk.id) id = chunk.id
      const usage = fromOpenAiChatUsage(chunk.usage)
      // Chat sends one usage chunk, at the end: final.
      if (usage) reported = { usage, final: true }
      // An error chunk may still report what the failed answer used (OpenRouter does): it is billed.
      if (chunk.error) {
        failed = true
        return [
          ...(usage ? [{ type: 'usage' as const, usage, final: true }] : []),
          { type: 'error', message: String(chunk.error.message ?? 'upstream error'), ...withStatus(chunk.error.code) },
        ]
      }
      const choices = asList(chunk.choices)
      chars += chunkChars(choices)
      const out: CEvent[] = []
      for (const c of choices) {
        if (c.finish_reason) finished = true
        // Only the first choice is an answer (n > 1 cannot cross protocols).
        if ((c.index ?? 0) !== 0) continue
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
    complete: () => !failed && (finished || done),
    end() {
      if (failed || (finish === undefined && !done)) return []
      return [{ type: 'finish', stopReason: refusal ? 'refusal' : fromChatFinish(finish, tools.size > 0) }]
    },
  }
}
