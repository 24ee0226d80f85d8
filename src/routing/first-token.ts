// The first-token deadline (docs/failover.md): a stream whose headers arrived is not committed to
// the client until its first content event has arrived, so a route that answers headers at once
// and then nothing can still fail over. What was read meanwhile is replayed to the pipeline
// unchanged. A stream that ends, or sends an error event, before any content is handed on as is
// (the pipeline reports it); a connection lost before content is a retryable failure.
import { CallEnded } from '../core/call-end.ts'
import type { CEvent } from '../core/canonical.ts'
import { GatewayError } from '../core/errors.ts'
import { SseParser } from '../lib/sse/parse.ts'
import type { EventSource, StreamDecoder } from '../providers/types.ts'
import type { BodyReader } from '../providers/transport/body-reader.ts'
import type { UpstreamStream } from '../providers/transport/http.ts'

/** Anything but bookkeeping counts as the first content (text, tool calls, reasoning, finish, error). */
const isContent = (ev: CEvent) => ev.type !== 'usage' && ev.type !== 'reasoning_start'

/**
 * Whether `chunk` holds the first content. An error the upstream sent with a status class before
 * any content (Bedrock's throttlingException: 429) is thrown: a failure before the first byte,
 * which failover handles as that answer (docs/failover.md "Failure → behaviour").
 */
function seesContent(parser: EventSource, decoder: StreamDecoder, chunk: Uint8Array, gatewayId: string): boolean {
  for (const ev of parser.push(chunk)) {
    let events: CEvent[]
    try {
      events = decoder.push(ev)
    } catch {
      continue // unreadable: the pipeline skips and counts it
    }
    const failed = events.find((e) => e.type === 'error' && e.status !== undefined)
    if (failed?.type === 'error')
      throw new GatewayError('UPSTREAM_ERROR', 'The upstream model failed.', {
        cause: { gateway: gatewayId, error: failed.message },
        retryable: true,
        upstream: { kind: 'status', status: failed.status },
      })
    if (events.some(isContent)) return true
  }
  return false
}

/**
 * Waits at most `ms` for the first content event of `call`, judged by a throwaway `decoder` of
 * the upstream's protocol. Returns the call with a body that replays what was read.
 */
export async function awaitFirstContent(
  call: UpstreamStream,
  decoder: StreamDecoder,
  ms: number,
  gatewayId: string,
  events?: EventSource,
): Promise<UpstreamStream> {
  const reader = call.body
  const parser = events ?? new SseParser()
  const read: Uint8Array[] = []
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    call.abort()
    reader.cancel().catch(() => {})
  }, ms)
  let ended = false
  try {
    for (;;) {
      const r = await reader.read()
      if (timedOut) throw new Error('first-token deadline')
      if (r.done) {
        ended = true
        break
      }
      read.push(r.value)
      if (seesContent(parser, decoder, r.value, gatewayId)) break
    }
  } catch (cause) {
    if (call.signal.reason instanceof CallEnded) throw call.signal.reason
    if (cause instanceof GatewayError) {
      call.abort()
      reader.cancel().catch(() => {})
      throw cause
    }
    throw new GatewayError(
      timedOut ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR',
      timedOut ? 'The upstream model sent no answer in time.' : 'The upstream connection failed before the answer began.',
      {
        cause: { gateway: gatewayId, error: String(cause) },
        retryable: true,
        upstream: { kind: timedOut ? 'first-token' : 'connect' },
      },
    )
  } finally {
    clearTimeout(timer)
  }
  return { ...call, body: replay(read, ended ? undefined : reader) }
}

/** What was read, then the rest of the body (a reader of its own: no stream, nothing queued per chunk). */
function replay(read: Uint8Array[], rest: BodyReader | undefined): BodyReader {
  let i = 0
  return {
    read: () => {
      if (i < read.length) return Promise.resolve({ done: false, value: read[i++]! })
      return rest ? rest.read() : Promise.resolve({ done: true, value: undefined })
    },
    cancel: (reason) => rest?.cancel(reason) ?? Promise.resolve(),
  }
}
