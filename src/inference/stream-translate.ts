// Translation as a stream stage: upstream SSE events → the upstream adapter's decoder →
// canonical events → the inbound protocol's encoder → client frames.
import type { CEvent } from '../core/canonical.ts'
import { GatewayError } from '../core/errors.ts'
import type { FrameTransform, StreamEncoder } from '../core/frames.ts'
import type { ReportedUsage } from '../core/usage.ts'
import type { StreamDecoder } from '../providers/types.ts'

export function translateTransform(decoder: StreamDecoder, encoder: StreamEncoder): FrameTransform {
  let usage: ReportedUsage | undefined
  let chars = 0
  let finished = false
  let tail = ''
  const encode = (events: CEvent[]): string => {
    let out = ''
    for (const ev of events) {
      if (ev.type === 'error')
        throw new GatewayError('UPSTREAM_ERROR', 'The upstream model failed mid-stream.', {
          cause: ev.message,
          ...(ev.status !== undefined ? { upstream: { kind: 'status', status: ev.status } } : {}),
        })
      if (ev.type === 'usage') usage = { usage: ev.usage, final: ev.final }
      else if (ev.type === 'text' || ev.type === 'reasoning') chars += ev.text.length
      else if (ev.type === 'tool_call_args') chars += ev.delta.length
      else if (ev.type === 'finish') finished = true
      out += encoder.push(ev)
    }
    return out
  }
  return {
    push: (ev) => encode(decoder.push(ev)),
    complete() {
      if (finished) return true
      try {
        tail = encode(decoder.end())
      } catch {
        return false
      }
      return finished
    },
    close: (svc) => tail + encoder.close(svc),
    error: (err) => encoder.error(err),
    usage: () => usage,
    deliveredChars: () => chars,
    upstreamId: () => decoder.upstreamId() ?? '',
  }
}
