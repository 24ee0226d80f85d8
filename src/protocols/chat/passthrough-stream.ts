// Chat stream served by an OpenAI-chat upstream: upstream frames are forwarded as they arrive
// (one upstream read → at most one client write, no coalescing), the model member rewritten to
// the public slug, while the same pass parses usage on the side. The client's stream ends with
// the upstream's usage chunk, one chunk carrying `svc`, then `data: [DONE]` (DESIGN). A failure
// ends it with exactly one error frame and no [DONE] (SPEC "Chat-completions stream").
import { GatewayError } from '../../core/errors.ts'
import { fromOpenAiChatUsage, type Usage } from '../../core/usage.ts'
import { SseParser } from '../../lib/sse/parse.ts'
import { chatStreamError } from './error.ts'
import { publicJson } from './public-identity.ts'

export type StreamEnd = 'completed' | 'failed' | 'disconnected'

export interface ChatStreamOutcome {
  end: StreamEnd
  /** Usage the upstream reported, if any. */
  usage: Usage | undefined
  /** Characters of content/reasoning/tool-argument text forwarded to the client. */
  deliveredChars: number
  /** Whether any byte reached the client. */
  started: boolean
  /** The upstream's completion id (for svc.upstreamRequestId when no header carried one). */
  upstreamId: string
  error?: GatewayError
}

export interface ChatPassthroughOptions {
  slug: string
  idleTimeoutMs: number
  /** Stop the upstream request (client gone, idle timeout, upstream error chunk). */
  abortUpstream: () => void
  /** Called exactly once. For a completed stream returns the final chunk's `svc` JSON. */
  finish: (outcome: ChatStreamOutcome) => string
}

const encoder = new TextEncoder()

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

export function chatPassthrough(upstream: ReadableStream<Uint8Array>, opts: ChatPassthroughOptions): ReadableStream<Uint8Array> {
  const reader = upstream.getReader()
  const parser = new SseParser()
  let usage: Usage | undefined
  let deliveredChars = 0
  let started = false
  let sawFinish = false
  let sawDone = false
  let last = { id: '', created: 0 }
  let finished = false
  let timedOut = false
  const idle = setTimeout(() => {
    timedOut = true
    opts.abortUpstream()
  }, opts.idleTimeoutMs)

  const finish = (end: StreamEnd, error?: GatewayError): string => {
    finished = true
    clearTimeout(idle)
    return opts.finish({ end, usage, deliveredChars, started, upstreamId: last.id, error })
  }

  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, out: string, error: GatewayError) => {
    opts.abortUpstream()
    finish('failed', error)
    controller.enqueue(encoder.encode(`${out}data: ${chatStreamError(error)}\n\n`))
    controller.close()
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        let result: Awaited<ReturnType<typeof reader.read>>
        try {
          result = await reader.read()
        } catch (cause) {
          if (finished) return
          const err = timedOut
            ? new GatewayError('UPSTREAM_TIMEOUT', 'The upstream model stopped responding mid-stream.', { cause })
            : new GatewayError('UPSTREAM_ERROR', 'The upstream connection failed mid-stream.', { cause })
          return fail(controller, '', err)
        }
        if (finished) return
        idle.refresh()
        const events = result.done ? parser.end() : parser.push(result.value)
        let out = ''
        for (const ev of events) {
          if (ev.data === '[DONE]') {
            sawDone = true
            continue
          }
          let chunk: Record<string, any>
          try {
            chunk = JSON.parse(ev.data)
          } catch (cause) {
            return fail(controller, out, new GatewayError('UPSTREAM_ERROR', 'The upstream sent an unreadable stream event.', { cause }))
          }
          if (chunk.error) {
            usage = fromOpenAiChatUsage(chunk.usage) ?? usage
            return fail(controller, out, new GatewayError('UPSTREAM_ERROR', 'The upstream model failed mid-stream.', { cause: chunk.error }))
          }
          if (chunk.usage) usage = fromOpenAiChatUsage(chunk.usage) ?? usage
          if (Array.isArray(chunk.choices) && chunk.choices.some((c: any) => c?.finish_reason)) sawFinish = true
          deliveredChars += deltaChars(chunk)
          if (typeof chunk.id === 'string') last = { id: chunk.id, created: chunk.created ?? last.created }
          out += `data: ${publicJson(ev.data, chunk, opts.slug)}\n\n`
        }
        if (result.done) {
          if (!sawFinish && !sawDone)
            return fail(controller, out, new GatewayError('UPSTREAM_ERROR', 'The upstream stream ended before the answer was complete.'))
          const svc = finish('completed')
          const final = `{"id":${JSON.stringify(last.id)},"object":"chat.completion.chunk","created":${last.created},"model":${JSON.stringify(opts.slug)},"choices":[],"svc":${svc}}`
          controller.enqueue(encoder.encode(`${out}data: ${final}\n\ndata: [DONE]\n\n`))
          controller.close()
          return
        }
        if (out.length > 0) {
          started = true
          controller.enqueue(encoder.encode(out))
          return
        }
      }
    },
    cancel() {
      if (finished) return
      opts.abortUpstream()
      reader.cancel().catch(() => {})
      finish('disconnected')
    },
  })
}
