// Canonical events → chat.completion.chunk frames: a role chunk, content / reasoning /
// tool-call deltas, the finish chunk, the usage chunk, the svc chunk, [DONE] (DESIGN).
import type { CEvent, StopReason } from '../../core/canonical.ts'
import type { StreamEncoder } from '../../core/stream-encoder.ts'
import { toChatFinish } from '../../core/stop-reasons.ts'
import type { Usage } from '../../core/usage.ts'
import { chatUsage } from './encode.ts'
import { chatStreamError } from './error.ts'

export function chatStreamEncoder(id: string, model: string, created: number): StreamEncoder {
  let started = false
  let usage: Usage | undefined
  let stop: StopReason = 'end'
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  const start = () => {
    if (started) return ''
    started = true
    return chunk({ role: 'assistant', content: '' })
  }
  return {
    push(e: CEvent) {
      const out = start()
      switch (e.type) {
        case 'text':
          return out + chunk({ content: e.text })
        case 'reasoning':
          return out + chunk({ reasoning_content: e.text })
        case 'tool_call_start':
          return out + chunk({ tool_calls: [{ index: e.index, id: e.id, type: 'function', function: { name: e.name, arguments: '' } }] })
        case 'tool_call_args':
          return out + chunk({ tool_calls: [{ index: e.index, function: { arguments: e.delta } }] })
        case 'usage':
          usage = e.usage
          return out
        case 'finish':
          stop = e.stopReason
          return out
        default:
          return out
      }
    },
    close(svc) {
      const base = { id, object: 'chat.completion.chunk', created, model, choices: [] }
      return (
        start() +
        chunk({}, toChatFinish(stop)) +
        `data: ${JSON.stringify({ ...base, usage: chatUsage(usage) })}\n\n` +
        `data: ${JSON.stringify(base).slice(0, -1)},"svc":${svc}}\n\ndata: [DONE]\n\n`
      )
    },
    error: (err) => `data: ${chatStreamError(err)}\n\n`,
  }
}
