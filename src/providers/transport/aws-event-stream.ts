// The AWS event stream (application/vnd.amazon.eventstream) as events: each message is framed by
// its prelude (total and header lengths, with the prelude's CRC32) and closed by the message's
// CRC32; @smithy/core's codec checks both and reads the headers. A message becomes an event whose
// data is the union member AWS's SDKs read it as — `{"<event type>": <payload>}` (`chunk`,
// `contentBlockDelta`, …) — so a wire's parse reads the data alone; an exception message becomes
// `{"exception": {"type", "message", "status"}}` (docs/providers.md "Bedrock: Claude and Llama"). A message whose
// checksum fails, or a stream cut inside a message, ends the events with a `corruptFrame`
// exception: past a bad prelude nothing can be framed.
import { EventStreamCodec, type Message } from '@smithy/core/event-streams'
import type { SseEvent } from '../../lib/sse/parse.ts'
import type { EventSource } from '../types.ts'

const utf8 = new TextDecoder()
const encoder = new TextEncoder()
const codec = new EventStreamCodec(
  (bytes) => utf8.decode(bytes),
  (text) => encoder.encode(text),
)
const PRELUDE = 12

const header = (m: Message, name: string): string | undefined => {
  const h = m.headers[name]
  return h?.type === 'string' ? h.value : undefined
}

/**
 * Bedrock's stream exceptions as the HTTP statuses failover classes them by (docs/failover.md
 * "Failure → behaviour"): throttling is a 429 (the route cools), a model timeout a 408, the rest
 * server failures. Unknown types are 502.
 */
const EXCEPTION_STATUS: Record<string, number> = {
  throttlingException: 429,
  serviceUnavailableException: 503,
  internalServerException: 500,
  modelStreamErrorException: 502,
  modelTimeoutException: 408,
  validationException: 400,
  modelNotReadyException: 503,
}

/** An exception as an event: `{"exception": {type, message, status}}`. */
export const exceptionEvent = (type: string, message: string): SseEvent => ({
  event: 'exception',
  data: JSON.stringify({ exception: { type, message, status: EXCEPTION_STATUS[type] ?? 502 } }),
})

function toEvent(m: Message): SseEvent | undefined {
  const kind = header(m, ':message-type')
  const payload = utf8.decode(m.body)
  const type = header(m, ':event-type')
  // The payload is JSON already: wrapped as text, parsed once by the wire.
  if (kind === 'event' && type) return { event: type, data: `{${JSON.stringify(type)}:${payload || '{}'}}` }
  if (kind === 'exception' || kind === 'error') {
    const type = header(m, ':exception-type') ?? header(m, ':error-code') ?? 'unknownException'
    let message = header(m, ':error-message') ?? ''
    try {
      message = String(JSON.parse(payload).message ?? message)
    } catch {}
    return exceptionEvent(type, message)
  }
  return undefined
}

export function awsEventStream(): EventSource {
  let buffer = new Uint8Array(0)
  let broken = false
  const fail = (why: string): SseEvent[] => {
    broken = true
    buffer = new Uint8Array(0)
    return [exceptionEvent('corruptFrame', why)]
  }
  return {
    push(chunk) {
      if (broken) return []
      const joined = new Uint8Array(buffer.length + chunk.length)
      joined.set(buffer)
      joined.set(chunk, buffer.length)
      const out: SseEvent[] = []
      let at = 0
      while (joined.length - at >= PRELUDE) {
        const prelude = new DataView(joined.buffer, joined.byteOffset + at, PRELUDE)
        // The prelude's own CRC is checked before its length is trusted (a corrupt length would wait for bytes that never come).
        if (Bun.hash.crc32(joined.subarray(at, at + 8)) !== prelude.getUint32(8, false)) return [...out, ...fail('prelude checksum')]
        const length = prelude.getUint32(0, false)
        if (length < 16) return [...out, ...fail(`message length ${length}`)]
        if (joined.length - at < length) break
        let message: Message
        try {
          message = codec.decode(joined.subarray(at, at + length))
        } catch (e) {
          return [...out, ...fail(String(e))]
        }
        at += length
        const ev = toEvent(message)
        if (ev) out.push(ev)
      }
      // Kept apart from the read it came in (no view pinning a whole network chunk).
      buffer = joined.slice(at)
      return out
    },
    end() {
      if (broken || buffer.length === 0) return []
      return fail(`stream cut inside a message (${buffer.length} bytes)`)
    },
  }
}
