// AWS event-stream messages (application/vnd.amazon.eventstream) as Bedrock sends them: a prelude
// (total and header lengths, its CRC32), the headers, the JSON payload and the message's CRC32.
// Encoded by @smithy/core's codec — the one the gateway decodes them with
// (src/providers/transport/aws-event-stream.ts) — so the fake writes no framing of its own.
import { EventStreamCodec, type MessageHeaders } from '@smithy/core/event-streams'

const enc = new TextEncoder()
const dec = new TextDecoder()
const codec = new EventStreamCodec(
  (b) => dec.decode(b),
  (s) => enc.encode(s),
)

const str = (value: string) => ({ type: 'string' as const, value })

/** One message of type `event` (`chunk`, `contentBlockDelta`, …) with its JSON payload. */
export const eventFrame = (eventType: string, payload: unknown): Uint8Array => eventFrameOf(eventType, JSON.stringify(payload))

/** One message of type `event` with its payload as given, JSON or not (a garbled or cut payload in a whole message). */
export function eventFrameOf(eventType: string, payload: string): Uint8Array {
  const headers: MessageHeaders = { ':message-type': str('event'), ':event-type': str(eventType), ':content-type': str('application/json') }
  return codec.encode({ headers, body: enc.encode(payload) })
}

/** One exception message (`throttlingException`, `modelStreamErrorException`, …). */
export const exceptionFrame = (type: string, message: string): Uint8Array => exceptionFrameOf(type, JSON.stringify({ message }))

/** One exception message with its payload as given. */
export function exceptionFrameOf(type: string, payload: string): Uint8Array {
  const headers: MessageHeaders = {
    ':message-type': str('exception'),
    ':exception-type': str(type),
    ':content-type': str('application/json'),
  }
  return codec.encode({ headers, body: enc.encode(payload) })
}
