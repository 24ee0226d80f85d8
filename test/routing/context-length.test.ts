// Context length (docs/failover.md "Context length"): an upstream's "too long" answer, however
// its protocol words it, becomes one 400 naming the catalog's contextWindow in the caller's own
// envelope, not retried and nothing billed; a prompt that cannot fit is refused before any
// upstream call.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { isContextLengthAnswer } from '../../src/core/context-window.ts'
import { expectChatError, expectNoUpstreamIdentity, postChat } from '../helpers/chat.ts'
import { expectNothingBilled, scenarioCatalog } from '../helpers/failover.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureText } from '../helpers/fixtures.ts'
import { ALL_BACKENDS, bearer, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

/** The vendors' own wording (OpenAI chat, OpenAI responses, Anthropic, vLLM-style servers). */
const TOO_LONG = {
  'openai-chat': {
    error: {
      message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  },
  'openai-responses': {
    error: {
      message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
      type: 'invalid_request_error',
      param: 'input',
      code: 'context_length_exceeded',
    },
  },
  anthropic: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210432 tokens > 200000 maximum' } },
  vllm: {
    object: 'error',
    message: "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens.",
    type: 'BadRequestError',
    code: 400,
  },
}

describe('context-length answers', () => {
  test('each vendor’s wording is recognised on a 400; other refusals and server errors are not', () => {
    for (const body of Object.values(TOO_LONG)) expect(isContextLengthAnswer(400, JSON.stringify(body))).toBe(true)
    expect(isContextLengthAnswer(413, 'prompt is too long')).toBe(true)
    expect(isContextLengthAnswer(500, JSON.stringify(TOO_LONG['openai-chat']))).toBe(false)
    for (const [protocol, file] of [
      ['openai-chat', 'error-400-unsupported-parameter.json'],
      ['openai-responses', 'error-400-unsupported-parameter.json'],
      ['anthropic-messages', 'error-400-invalid-request.json'],
    ] as const)
      expect(isContextLengthAnswer(400, fixtureText(protocol, file))).toBe(false)
  })
})

for (const backends of ALL_BACKENDS) {
  describe(`context length on ${backends.db}+${backends.store}`, () => {
    let a: FakeUpstream
    let b: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      a = startFakeUpstream({ kind: 'status', status: 400, body: TOO_LONG['openai-chat'] })
      b = startFakeUpstream({ kind: 'status', status: 500 })
      const catalog = scenarioCatalog(
        [
          { id: 'gw-a', url: a.url, timeoutMs: 5_000, policy: {} },
          { id: 'gw-b', url: b.url, timeoutMs: 5_000, policy: {} },
        ],
        [
          { id: 'acme/big', routes: ['gw-a', 'gw-b'], contextWindow: 128_000 },
          { id: 'acme/small', routes: ['gw-a'], contextWindow: 100 },
        ],
      )
      gw = await startTestGateway(backends, catalog)
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      a.stop()
      b.stop()
    }, 30_000)

    for (const [name, body] of Object.entries(TOO_LONG))
      test(`chat: the upstream's context error (${name}) → 400 CONTEXT_LENGTH_EXCEEDED naming 128000; no retry, no other route, nothing billed`, async () => {
        const u = await gw.user(1)
        const [seenA, seenB] = [a.seen.length, b.seen.length]
        a.script({ kind: 'status', status: 400, body })
        const res = await postChat(gw, u.key, { model: 'acme/big' })
        const raw = await res.clone().text()
        const error = await expectChatError(res, 400, 'CONTEXT_LENGTH_EXCEEDED')
        expect(error.message).toContain('context window of 128000 tokens')
        // The same prompt cannot fit on a retry: the SDKs are told not to.
        expect(res.headers.get('x-should-retry')).toBe('false')
        expectNoUpstreamIdentity(raw, res.headers, ['130512', '210432', '32768', 'invalid_request_error'])
        expect([a.seen.length - seenA, b.seen.length - seenB]).toEqual([1, 0])
        await expectNothingBilled(gw, u.userId, res.headers.get('x-request-id')!, 400)
      })

    test('messages and responses callers get it in their own envelopes', async () => {
      const u = await gw.user(1)
      const m = await gw.request('/v1/messages', {
        method: 'POST',
        headers: bearer(u.key),
        body: JSON.stringify({ model: 'acme/big', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      })
      expect(m.status).toBe(400)
      const mb = (await m.json()) as any
      expect(mb).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
      expect(mb.error.message).toContain('128000')
      const r = await gw.request('/v1/responses', {
        method: 'POST',
        headers: bearer(u.key),
        body: JSON.stringify({ model: 'acme/big', input: 'hi' }),
      })
      expect(r.status).toBe(400)
      const rb = (await r.json()) as any
      expect(rb.error).toMatchObject({ type: 'invalid_request_error', code: 'context_length_exceeded' })
      expect(rb.error.message).toContain('128000')
    })

    test('a prompt that cannot fit the catalog’s contextWindow is refused before any upstream call; nothing reserved or billed', async () => {
      const u = await gw.user(1)
      const seen = a.seen.length
      for (const stream of [false, true]) {
        const res = await postChat(gw, u.key, { model: 'acme/small', stream, messages: [{ role: 'user', content: 'x'.repeat(2_000) }] })
        const error = await expectChatError(res, 400, 'CONTEXT_LENGTH_EXCEEDED')
        expect(error.message).toContain('context window of 100 tokens')
        await expectNothingBilled(gw, u.userId, res.headers.get('x-request-id')!, 400)
      }
      expect(a.seen.length).toBe(seen)
    })

    test('a prompt near the window is left to the upstream (the pre-check never refuses what might fit)', async () => {
      const u = await gw.user(1)
      const seen = a.seen.length
      a.script({ kind: 'json', body: fixtureText('openai-chat', 'json-text.json') })
      const res = await postChat(gw, u.key, { model: 'acme/small', max_tokens: 5, messages: [{ role: 'user', content: 'x'.repeat(450) }] })
      expect(res.status).toBe(200)
      expect(a.seen.length).toBe(seen + 1)
    })
  })
}
