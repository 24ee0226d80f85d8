// The chat body at the edge: every bounded parameter of docs/api.md "Chat completions" refused with 422 naming the
// field, unreadable and oversized bodies refused, and a refusal changes nothing (no upstream call,
// no reservation, no charge). What passes goes upstream as sent, with only `model` (the route's
// upstream name) and, for streams, include_usage changed.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ALL_BACKENDS, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectChatError, postChat, reservedOf, sseFrames } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'

const MAX_BODY_BYTES = 2048
const hello = [{ role: 'user', content: 'Say hello' }]

// [case, body patch, the field the message must start with]
const INVALID: [string, Record<string, unknown>, string][] = [
  ['temperature above 2', { temperature: 2.01 }, 'temperature'],
  ['temperature below 0', { temperature: -0.1 }, 'temperature'],
  ['temperature as text', { temperature: 'hot' }, 'temperature'],
  ['top_p above 1', { top_p: 1.01 }, 'top_p'],
  ['top_p below 0', { top_p: -0.01 }, 'top_p'],
  ['n of 0', { n: 0 }, 'n'],
  ['n of 9', { n: 9 }, 'n'],
  ['n not an integer', { n: 1.5 }, 'n'],
  ['n as text', { n: '2' }, 'n'],
  ['presence_penalty below -2', { presence_penalty: -2.01 }, 'presence_penalty'],
  ['presence_penalty above 2', { presence_penalty: 3 }, 'presence_penalty'],
  ['frequency_penalty above 2', { frequency_penalty: 2.1 }, 'frequency_penalty'],
  ['frequency_penalty below -2', { frequency_penalty: -2.5 }, 'frequency_penalty'],
  ['max_tokens of 0', { max_tokens: 0 }, 'max_tokens'],
  ['max_tokens negative', { max_tokens: -5 }, 'max_tokens'],
  ['max_tokens not an integer', { max_tokens: 1.5 }, 'max_tokens'],
  ['max_tokens as text', { max_tokens: '10' }, 'max_tokens'],
  ['max_completion_tokens negative', { max_completion_tokens: -1 }, 'max_completion_tokens'],
  ['empty messages', { messages: [] }, 'messages'],
  ['messages missing', { messages: undefined }, 'messages'],
  ['messages not an array', { messages: 'hi' }, 'messages'],
  ['a message without role', { messages: [{ content: 'x' }] }, 'messages[0].role'],
  ['an unknown role', { messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
  ['a role of the wrong type', { messages: [{ role: 42, content: 'x' }] }, 'messages[0].role'],
  ['the second message wrong', { messages: [...hello, { role: 'user', content: 42 }] }, 'messages[1].content'],
  ['content of the wrong type', { messages: [{ role: 'user', content: 42 }] }, 'messages[0].content'],
  ['content parts without a type', { messages: [{ role: 'user', content: [{ text: 'x' }] }] }, 'messages[0].content[0].type'],
  ['a user message without content', { messages: [{ role: 'user' }] }, 'messages[0].content'],
  ['a system message with null content', { messages: [{ role: 'system', content: null }, ...hello] }, 'messages[0].content'],
  ['name of the wrong type', { messages: [{ role: 'user', content: 'x', name: 7 }] }, 'messages[0].name'],
  ['missing model', { model: undefined }, 'model'],
  ['empty model', { model: '' }, 'model'],
  ['model of the wrong type', { model: 5 }, 'model'],
  ['stream not a boolean', { stream: 'yes' }, 'stream'],
  ['stream_options not an object', { stream: true, stream_options: 'x' }, 'stream_options'],
  ['stop of the wrong type', { stop: 5 }, 'stop'],
  ['more than 4 stop sequences', { stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
  ['user of the wrong type', { user: 5 }, 'user'],
  ['tools not an array', { tools: 'x' }, 'tools'],
  ['seed not an integer', { seed: 1.2 }, 'seed'],
]

for (const backends of ALL_BACKENDS) {
  describe(`chat validation on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]), { MAX_BODY_BYTES: String(MAX_BODY_BYTES) })
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    /** A refused call: no upstream request, nothing reserved, balance and ledger untouched. */
    async function expectUntouched(u: { userId: string }, seenBefore: number) {
      expect(up.seen.length).toBe(seenBefore)
      expect(await reservedOf(gw, u.userId)).toBe(0n)
      await gw.settled()
      expect(await gw.books(u.userId)).toEqual({ balance: 1_000_000n, ledgerSum: 1_000_000n })
    }

    for (const [name, patch, field] of INVALID) {
      test(`422 VALIDATION_FAILED naming the field: ${name}`, async () => {
        const u = await gw.user(1)
        const seen = up.seen.length
        const error = await expectChatError(await postChat(gw, u.key, patch), 422, 'VALIDATION_FAILED')
        expect(error.message.startsWith(`${field}:`)).toBe(true)
        expect(error.param).toBe(field)
        await expectUntouched(u, seen)
      })
    }

    test('a body that is JSON but not an object → 422 naming the body', async () => {
      const u = await gw.user(1)
      const seen = up.seen.length
      for (const raw of ['null', '[]', '"hi"', '42']) {
        const error = await expectChatError(await postChat(gw, u.key, raw), 422, 'VALIDATION_FAILED')
        expect(error.message.startsWith('body:')).toBe(true)
      }
      await expectUntouched(u, seen)
    })

    test('every bound is inclusive: the edges of each range are served and reach the upstream unchanged', async () => {
      const u = await gw.user(1)
      const edges: Record<string, unknown>[] = [
        { temperature: 0, top_p: 0, n: 1, presence_penalty: -2, frequency_penalty: -2, max_tokens: 1 },
        {
          temperature: 2,
          top_p: 1,
          n: 8,
          presence_penalty: 2,
          frequency_penalty: 2,
          max_completion_tokens: 1,
          seed: -3,
          stop: ['a', 'b', 'c', 'd'],
        },
        { stop: 'END', user: 'end-user-1', max_tokens: null, stream_options: null },
      ]
      for (const patch of edges) {
        const res = await postChat(gw, u.key, patch)
        expect(res.status).toBe(200)
        expect(up.seen.at(-1)!.body).toEqual({ model: 'upstream-secret-model', messages: hello, ...patch })
      }
    })

    test('an assistant turn may carry tool calls without content; developer and tool roles are accepted', async () => {
      const u = await gw.user(1)
      const messages = [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
        { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ]
      const res = await postChat(gw, u.key, { messages })
      expect(res.status).toBe(200)
      expect(up.seen.at(-1)!.body.messages).toEqual(messages)
    })

    test('invalid JSON and an empty body → 400 BAD_REQUEST; nothing reserved or billed', async () => {
      const u = await gw.user(1)
      const seen = up.seen.length
      const bad = await expectChatError(await postChat(gw, u.key, '{"model": '), 400, 'BAD_REQUEST')
      expect(bad.message).toContain('JSON')
      await expectChatError(await postChat(gw, u.key, ''), 400, 'BAD_REQUEST')
      await expectUntouched(u, seen)
    })

    test(`a body over MAX_BODY_BYTES (${MAX_BODY_BYTES}) → 413 PAYLOAD_TOO_LARGE, however it is sent; one just under it is served`, async () => {
      const u = await gw.user(1)
      const seen = up.seen.length
      const over = chatBody({ messages: [{ role: 'user', content: 'x'.repeat(MAX_BODY_BYTES) }] })
      // Declared by Content-Length.
      await expectChatError(await postChat(gw, u.key, over, { 'content-length': String(over.length) }), 413, 'PAYLOAD_TOO_LARGE')
      // Streamed without a length.
      const streamed = new Request('http://tollgate.test/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json' },
        body: new Blob([over]).stream(),
      })
      await expectChatError(await gw.app.handle(streamed), 413, 'PAYLOAD_TOO_LARGE')
      // Fewer characters than the limit but more bytes (2 bytes per 'é').
      const wide = chatBody({ messages: [{ role: 'user', content: 'é'.repeat(MAX_BODY_BYTES / 2) }] })
      expect(wide.length).toBeLessThan(MAX_BODY_BYTES + 100)
      expect(Buffer.byteLength(wide)).toBeGreaterThan(MAX_BODY_BYTES)
      await expectChatError(await postChat(gw, u.key, wide), 413, 'PAYLOAD_TOO_LARGE')
      await expectUntouched(u, seen)

      const under = chatBody({ messages: [{ role: 'user', content: 'x'.repeat(MAX_BODY_BYTES - 200) }] })
      expect(under.length).toBeLessThanOrEqual(MAX_BODY_BYTES)
      expect((await postChat(gw, u.key, under)).status).toBe(200)
    })

    test('unknown extra fields pass through unchanged; `model` upstream is the route’s upstream name; the caller’s key never goes upstream', async () => {
      const u = await gw.user(1)
      const extra = {
        logprobs: true,
        top_logprobs: 2,
        metadata: { team: 'a', nested: { list: [1, null, 'x'] } },
        parallel_tool_calls: false,
        reasoning_effort: 'low',
        x_vendor_flag: { deep: [{ a: 1.25 }] },
        response_format: { type: 'json_object' },
        tool_choice: 'none',
      }
      const res = await postChat(gw, u.key, extra, { 'x-api-key': u.key })
      expect(res.status).toBe(200)
      const seen = up.seen.at(-1)!
      expect(seen.path).toBe('/v1/chat/completions')
      expect(seen.body).toEqual({ model: 'upstream-secret-model', messages: hello, ...extra })
      expect(seen.body).not.toHaveProperty('stream_options')
      expect(seen.headers.authorization).toBe('Bearer sk-upstream-secret')
      expect(JSON.stringify(seen.headers)).not.toContain(u.key)
    })

    test('streams always ask the upstream for usage: include_usage forced true, other stream_options kept', async () => {
      const u = await gw.user(1)
      for (const stream_options of [undefined, { include_usage: false }, { include_usage: false, continuous_usage_stats: true }]) {
        up.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse') })
        const res = await postChat(gw, u.key, { stream: true, stream_options, top_k: 3 })
        expect(res.status).toBe(200)
        expect(sseFrames(await res.text()).at(-1)).toBe('data: [DONE]')
        expect(up.seen.at(-1)!.body).toEqual({
          model: 'upstream-secret-model',
          messages: hello,
          stream: true,
          top_k: 3,
          stream_options: { ...stream_options, include_usage: true },
        })
      }
    })
  })
}
