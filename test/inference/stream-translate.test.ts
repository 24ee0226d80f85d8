// The stream stage every stream runs: each upstream event parsed once by the decoder's wire and
// that one value read by the decoder and handed to a pass-through tee; usage, completion,
// delivered output and the upstream id are the decoder's on both paths; an unreadable event is
// skipped and counted the same way on both, and past MAX_UNREADABLE the stream fails as malformed.
import { describe, expect, test } from 'bun:test'
import type { FrameTee } from '../../src/core/frames.ts'
import { MAX_UNREADABLE, teeTransform, translateTransform } from '../../src/inference/stream-translate.ts'
import { SseParser } from '../../src/lib/sse/parse.ts'
import { chatStreamEncoder } from '../../src/protocols/chat/stream-encoder.ts'
import { chatStreamDecoder } from '../../src/providers/openai-chat/stream-decoder.ts'
import type { ChatChunkWire } from '../../src/providers/openai-chat/wire.ts'
import { fixtureSse } from '../helpers/fixtures.ts'

const events = () => new SseParser().push(fixtureSse('openai-chat', 'stream-text-usage.sse'))

/** A chat decoder whose parse is counted. */
function countedDecoder() {
  const d = chatStreamDecoder()
  const parsed: unknown[] = []
  const parse = d.parse
  d.parse = (data) => {
    const r = parse(data)
    if (r.ok) parsed.push(r.value)
    return r
  }
  return { d, parsed }
}

describe('stream stage', () => {
  test('pass-through: each event parsed once, the same value handed to the tee; [DONE] never forwarded', () => {
    const { d, parsed } = countedDecoder()
    const seen: unknown[] = []
    const tee: FrameTee<ChatChunkWire> = { push: (_ev, chunk) => (seen.push(chunk), 'x'), close: () => 'close', error: () => 'error' }
    const t = teeTransform(d, tee)
    const all = events()
    let out = ''
    for (const ev of all) out += t.push(ev)
    expect(parsed).toHaveLength(all.length)
    // Every parsed chunk but the sentinel reached the tee as the very same object.
    expect(seen).toEqual(parsed.slice(0, -1))
    for (let i = 0; i < seen.length; i++) expect(seen[i]).toBe(parsed[i])
    expect(out).toBe('x'.repeat(all.length - 1))
    expect(t.complete()).toBe(true)
    expect(t.usage()?.final).toBe(true)
    expect(t.deliveredChars()).toBe(d.deliveredChars())
    expect(t.upstreamId()).toBe(d.upstreamId())
    expect(t.close('{}')).toBe('close')
  })

  test('translation: the same decoder facts; the decoder’s closing events precede the encoder’s close', () => {
    const { d, parsed } = countedDecoder()
    const t = translateTransform(d, chatStreamEncoder('chatcmpl-x', 'acme/m', 1))
    for (const ev of events()) t.push(ev)
    expect(parsed).toHaveLength(events().length)
    expect([t.complete(), t.usage()?.final, t.deliveredChars() > 0]).toEqual([true, true, true])
    expect(t.close('{"cost":1}')).toContain('"finish_reason":"stop"')
  })

  test('unreadable events are skipped and counted on both paths; one more than MAX_UNREADABLE fails the stream as malformed', () => {
    for (const make of [
      () => teeTransform(chatStreamDecoder(), { push: () => 'x', close: () => '', error: () => '' }),
      () => translateTransform(chatStreamDecoder(), chatStreamEncoder('c', 'm', 1)),
    ]) {
      const t = make()
      for (let i = 0; i < MAX_UNREADABLE; i++) expect(t.push({ event: undefined, data: '{"cut' })).toBe('')
      expect(t.unreadable()).toBe(MAX_UNREADABLE)
      let thrown: any
      try {
        t.push({ event: undefined, data: 'garbage' })
      } catch (e) {
        thrown = e
      }
      expect([thrown?.code, thrown?.extra.upstream?.kind, thrown?.extra.cause?.reason]).toEqual(['UPSTREAM_ERROR', 'malformed', 'not_json'])
    }
  })

  test('an upstream error event fails the stream before the tee sees it', () => {
    let teed = 0
    const t = teeTransform(chatStreamDecoder(), { push: () => (teed++, 'x'), close: () => '', error: () => '' })
    expect(() =>
      t.push({ event: undefined, data: '{"error":{"message":"limit"},"usage":{"prompt_tokens":3,"completion_tokens":2}}' }),
    ).toThrow('failed mid-stream')
    expect(teed).toBe(0)
    // The usage the error chunk reported is still what the call is billed.
    expect(t.usage()).toEqual({ usage: expect.objectContaining({ inputTokens: 3, outputTokens: 2 }), final: true })
  })
})
