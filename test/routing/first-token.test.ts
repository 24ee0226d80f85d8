// The first-token wait (src/routing/first-token.ts) per upstream protocol: bookkeeping events
// (Anthropic message_start and an empty text block, a chat role chunk, responses
// response.created) are not a first token; the first delta is; what was read is replayed
// byte for byte ahead of the rest.
import { describe, expect, test } from 'bun:test'
import { CallEnded } from '../../src/core/call-end.ts'
import { GatewayError } from '../../src/core/errors.ts'
import { anthropicStreamDecoder } from '../../src/providers/anthropic-messages/stream-decoder.ts'
import { chatStreamDecoder } from '../../src/providers/openai-chat/stream-decoder.ts'
import { responsesStreamDecoder } from '../../src/providers/openai-responses/stream-decoder.ts'
import { awaitFirstContent } from '../../src/routing/first-token.ts'
import { fixtureSse } from '../helpers/fixtures.ts'

const enc = new TextEncoder()

/** An upstream call whose body sends `head` at once and `tail` only when `release()` is called. */
function upstream(head: string, tail: string) {
  let release!: () => void
  let aborted = false
  const gate = new Promise<void>((r) => (release = r))
  // The attempt's controller: the call aborts it with a CallEnded reason, which fails the body's read.
  const attempt = new AbortController()
  const body = new ReadableStream<Uint8Array>({
    async start(c) {
      attempt.signal.addEventListener('abort', () => c.error(attempt.signal.reason))
      c.enqueue(enc.encode(head))
      await gate
      if (!aborted) {
        c.enqueue(enc.encode(tail))
        c.close()
      }
    },
  })
  return {
    call: { response: new Response(null), body: body.getReader(), abort: () => void (aborted = true), signal: attempt.signal },
    release,
    attempt,
    wasAborted: () => aborted,
  }
}

/** The text up to (not including) the frame holding `marker`. */
const before = (sse: string, marker: string) => sse.slice(0, sse.lastIndexOf('\n\n', sse.indexOf(marker)) + 2)

const CASES = [
  ['anthropic-messages', fixtureSse('anthropic-messages', 'stream-text.sse'), 'text_delta', anthropicStreamDecoder],
  ['openai-chat', fixtureSse('openai-chat', 'stream-text-usage.sse'), '"content":"', chatStreamDecoder],
  ['openai-responses', fixtureSse('openai-responses', 'stream-text.sse'), 'response.output_text.delta', responsesStreamDecoder],
] as const

for (const [protocol, sse, marker, decoder] of CASES) {
  describe(`first token over ${protocol}`, () => {
    const head = before(sse, marker)
    test('only bookkeeping before the deadline → aborted, a retryable first-token failure', async () => {
      expect(head.length).toBeGreaterThan(0)
      const u = upstream(head, sse.slice(head.length))
      const err = await awaitFirstContent(u.call, decoder(), 50, 'gw').catch((e) => e)
      expect(err).toBeInstanceOf(GatewayError)
      expect(err.retryable).toBe(true)
      expect(err.extra.upstream).toEqual({ kind: 'first-token' })
      expect(u.wasAborted()).toBe(true)
      u.release()
    })

    test('the call ending while it waits (client gone) rejects with its CallEnded, no upstream failure', async () => {
      const u = upstream(head, sse.slice(head.length))
      const pending = awaitFirstContent(u.call, decoder(), 5_000, 'gw').catch((e) => e)
      const ended = new CallEnded({ kind: 'client_left' })
      u.attempt.abort(ended)
      expect(await pending).toBe(ended)
      u.release()
    })

    test('the first delta commits; the stream replays everything, byte for byte', async () => {
      const u = upstream(head, sse.slice(head.length))
      const pending = awaitFirstContent(u.call, decoder(), 5_000, 'gw')
      u.release()
      const call = await pending
      let text = ''
      for (let r = await call.body.read(); !r.done; r = await call.body.read()) text += new TextDecoder().decode(r.value)
      expect(text).toBe(sse)
    })
  })
}

describe('an error event before any content', () => {
  const start =
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":9,"output_tokens":1}}}\n\n'
  const error = (type: string) => `event: error\ndata: {"type":"error","error":{"type":"${type}","message":"busy"}}\n\n`

  test('Anthropic overloaded_error or rate_limit_error: a retryable failure with its status, the attempt aborted', async () => {
    for (const [type, status] of [
      ['overloaded_error', 529],
      ['rate_limit_error', 429],
      ['api_error', 500],
    ] as const) {
      const u = upstream(start + error(type), '')
      const err = await awaitFirstContent(u.call, anthropicStreamDecoder(), 5_000, 'gw').catch((e) => e)
      expect([err instanceof GatewayError, err.retryable, err.extra.upstream]).toEqual([true, true, { kind: 'status', status }])
      expect(u.wasAborted()).toBe(true)
      u.release()
    }
  })

  test('an error type with no status class (a fault of the request) is handed on as content', async () => {
    const u = upstream(start + error('invalid_request_error'), '')
    u.release()
    const call = await awaitFirstContent(u.call, anthropicStreamDecoder(), 5_000, 'gw')
    let text = ''
    for (let r = await call.body.read(); !r.done; r = await call.body.read()) text += new TextDecoder().decode(r.value)
    expect(text).toBe(start + error('invalid_request_error'))
  })
})
