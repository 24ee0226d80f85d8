// Canonical events → chat.completion.chunk frames: a role chunk, content / refusal /
// reasoning / tool-call deltas, the finish chunk, the usage chunk, the svc chunk, [DONE]
// (docs/api.md "Chat completions"). A tool call that streamed no arguments gets "{}" so clients can parse it.
import type { CEvent, StopReason } from '../../core/canonical.ts'
import type { StreamEncoder } from '../../core/frames.ts'
import type { Usage } from '../../core/usage.ts'
import { chatFinish, chatUsage } from './encode.ts'
import { chatStreamError } from './error.ts'

export function chatStreamEncoder(id: string, model: string, created: number): StreamEncoder {
  let started = false
  let usage: Usage | undefined
  let stop: StopReason = 'end'
  let refused = false
  /** The tool call whose arguments are streaming, and whether any arrived. */
  let tool: { index: number; args: boolean } | undefined
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  const start = () => {
    if (started) return ''
    started = true
    return chunk({ role: 'assistant', content: '' })
  }
  const endTool = () => {
    const t = tool
    tool = undefined
    return t && !t.args ? chunk({ tool_calls: [{ index: t.index, function: { arguments: '{}' } }] }) : ''
  }
  return {
    push(e: CEvent) {
      let out = start()
      if (e.type !== 'tool_call_args' && e.type !== 'usage' && e.type !== 'finish') out += endTool()
      switch (e.type) {
        case 'text':
          if (e.refusal) refused = true
          return out + chunk(e.refusal ? { refusal: e.text } : { content: e.text })
        case 'reasoning':
          return out + chunk({ reasoning_content: e.text })
        case 'tool_call_start':
          tool = { index: e.index, args: false }
          return out + chunk({ tool_calls: [{ index: e.index, id: e.id, type: 'function', function: { name: e.name, arguments: '' } }] })
        case 'tool_call_args':
          if (tool?.index === e.index) tool.args = true
          return out + chunk({ tool_calls: [{ index: e.index, function: { arguments: e.delta } }] })
        case 'usage':
          usage = e.usage
          return out
        case 'finish':
          stop = e.stopReason
          return out
        default:
          return out // signatures and encrypted or redacted reasoning have no place in chat
      }
    },
    close(svc) {
      const base = { id, object: 'chat.completion.chunk', created, model, choices: [] }
      return (
        start() +
        endTool() +
        chunk({}, chatFinish(stop, refused)) +
        `data: ${JSON.stringify({ ...base, usage: chatUsage(usage) })}\n\n` +
        `data: ${JSON.stringify(base).slice(0, -1)},"svc":${svc}}\n\ndata: [DONE]\n\n`
      )
    },
    error: (err) => `data: ${chatStreamError(err)}\n\n`,
  }
}
