// Chat stream served by an OpenAI-chat upstream: upstream frames are forwarded as they arrive,
// the model member rewritten to the public slug, while the same pass parses usage on the side.
// The client's stream ends with the upstream's usage chunk, one chunk carrying `svc`, then
// `data: [DONE]` (docs/api.md "Chat completions"). A failure ends it with exactly one error frame
// and no [DONE] (docs/api.md "Streams that fail").
import { GatewayError } from '../../core/errors.ts'
import type { FrameTransform } from '../../core/stream-encoder.ts'
import { fromOpenAiChatUsage, type Usage } from '../../core/usage.ts'
import { chatStreamError } from './error.ts'
import { publicJson } from './public-identity.ts'

function deltaChars(chunk: Record<string, any>): number {
  let n = 0
  const choices = chunk.choices
  if (!Array.isArray(choices)) return 0
  for (const c of choices) {
    const d = c?.delta
    if (!d) continue
    if (typeof d.content === 'string') n += d.content.length
    if (typeof d.reasoning_content === 'string') n += d.reasoning_content.length
    if (typeof d.refusal === 'string') n += d.refusal.length
    if (Array.isArray(d.tool_calls)) for (const tc of d.tool_calls) n += tc?.function?.arguments?.length ?? 0
  }
  return n
}

export function chatTee(slug: string): FrameTransform {
  let usage: Usage | undefined
  let chars = 0
  let sawFinish = false
  let sawDone = false
  let last = { id: '', created: 0 }
  return {
    push(ev) {
      if (ev.data === '[DONE]') {
        sawDone = true
        return ''
      }
      const chunk = JSON.parse(ev.data)
      if (chunk.error) {
        usage = fromOpenAiChatUsage(chunk.usage) ?? usage
        throw new GatewayError('UPSTREAM_ERROR', 'The upstream model failed mid-stream.', { cause: chunk.error })
      }
      if (chunk.usage) usage = fromOpenAiChatUsage(chunk.usage) ?? usage
      if (Array.isArray(chunk.choices) && chunk.choices.some((c: any) => c?.finish_reason)) sawFinish = true
      chars += deltaChars(chunk)
      if (typeof chunk.id === 'string') last = { id: chunk.id, created: chunk.created ?? last.created }
      return `data: ${publicJson(ev.data, chunk, slug)}\n\n`
    },
    complete: () => sawFinish || sawDone,
    close: (svc) =>
      `data: {"id":${JSON.stringify(last.id)},"object":"chat.completion.chunk","created":${last.created},"model":${JSON.stringify(slug)},"choices":[],"svc":${svc}}\n\ndata: [DONE]\n\n`,
    error: (err) => `data: ${chatStreamError(err)}\n\n`,
    usage: () => usage,
    deliveredChars: () => chars,
    upstreamId: () => last.id,
  }
}
