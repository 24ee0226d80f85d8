// The first-token deadline (docs/failover.md): a stream whose headers arrived is not committed to
// the client until its first content event has arrived, so a route that answers headers at once
// and then nothing can still fail over. What was read meanwhile is replayed to the pipeline
// unchanged. A stream that ends, or sends an error event, before any content is handed on as is
// (the pipeline reports it); a connection lost before content is a retryable failure.
import type { CEvent } from '../core/canonical.ts'
import { GatewayError } from '../core/errors.ts'
import { SseParser } from '../lib/sse/parse.ts'
import type { StreamDecoder } from '../providers/types.ts'
import type { UpstreamCall } from '../providers/transport/http.ts'

/** Anything but bookkeeping counts as the first content (text, tool calls, reasoning, finish, error). */
const isContent = (ev: CEvent) => ev.type !== 'usage' && ev.type !== 'reasoning_start'

function seesContent(parser: SseParser, decoder: StreamDecoder, chunk: Uint8Array): boolean {
  for (const ev of parser.push(chunk)) {
    try {
      if (decoder.push(ev).some(isContent)) return true
    } catch {
      // unreadable: the pipeline skips and counts it
    }
  }
  return false
}

/**
 * Waits at most `ms` for the first content event of `call`, judged by a throwaway `decoder` of
 * the upstream's protocol. Returns the call with a body that replays what was read.
 */
export async function awaitFirstContent(call: UpstreamCall, decoder: StreamDecoder, ms: number, gatewayId: string): Promise<UpstreamCall> {
  const reader = call.response.body!.getReader()
  const parser = new SseParser()
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
      if (seesContent(parser, decoder, r.value)) break
    }
  } catch (cause) {
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
  return {
    abort: call.abort,
    response: new Response(replay(read, ended ? undefined : reader), { status: call.response.status, headers: call.response.headers }),
  }
}

function replay(read: Uint8Array[], rest: ReadableStreamDefaultReader<Uint8Array> | undefined): ReadableStream<Uint8Array> {
  let i = 0
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      if (i < read.length) return c.enqueue(read[i++]!)
      if (!rest) return c.close()
      try {
        const r = await rest.read()
        if (r.done) c.close()
        else c.enqueue(r.value)
      } catch (e) {
        c.error(e)
      }
    },
    cancel(reason) {
      return rest?.cancel(reason)
    },
  })
}
