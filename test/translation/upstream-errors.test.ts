// Recorded upstream failures through every (inbound × upstream) pair: an HTTP error answer
// becomes the inbound protocol's own envelope and status (a refused request is the caller's 400,
// anything else fails over and ends in 502), and a recorded mid-stream error becomes exactly one
// error event — billed what the upstream reported, or what it delivered.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { requestLogs } from '../../src/db/schema/index.ts'
import { perProtocolCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse, fixtureText } from '../helpers/fixtures.ts'
import { render, type Inbound } from './frame-render.ts'

type Proto = 'openai-chat' | 'anthropic-messages' | 'openai-responses'
const PROTOS: Proto[] = ['openai-chat', 'anthropic-messages', 'openai-responses']
const INBOUNDS: Inbound[] = ['chat', 'messages', 'responses']
const PATH: Record<Inbound, string> = { chat: '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses' }

const HTTP_ERRORS: Record<Proto, [string, number][]> = {
  'openai-chat': [
    ['error-400-unsupported-parameter.json', 400],
    ['error-401-invalid-api-key.json', 401],
    ['error-404-model-not-found.json', 404],
    ['error-429-openrouter-rate-limited.json', 429],
  ],
  'anthropic-messages': [
    ['error-400-invalid-request.json', 400],
    ['error-401-authentication.json', 401],
    ['error-404-not-found.json', 404],
  ],
  'openai-responses': [
    ['error-400-unsupported-parameter.json', 400],
    ['error-400-model-not-found.json', 400],
    ['error-401-invalid-api-key.json', 401],
    ['error-429-insufficient-quota.json', 429],
  ],
}

/** The client's view of an upstream error: status and the protocol's own error kind. */
function envelope(inbound: Inbound, refused: boolean): { status: number; kind: string } {
  if (inbound === 'chat') return refused ? { status: 400, kind: 'BAD_REQUEST' } : { status: 502, kind: 'UPSTREAM_ERROR' }
  if (inbound === 'messages') return refused ? { status: 400, kind: 'invalid_request_error' } : { status: 502, kind: 'api_error' }
  return refused ? { status: 400, kind: 'invalid_request_error' } : { status: 502, kind: 'server_error' }
}

const kindOf = (inbound: Inbound, j: any) =>
  inbound === 'chat' ? j.error.code : inbound === 'messages' ? (j.type === 'error' ? j.error.type : 'NOT AN ERROR ENVELOPE') : j.error.type

function body(inbound: Inbound, model: string, stream: boolean) {
  if (inbound === 'chat') return { model, stream, messages: [{ role: 'user', content: 'hi' }] }
  if (inbound === 'messages') return { model, stream, max_tokens: 256, messages: [{ role: 'user', content: 'hi' }] }
  return { model, stream, input: 'hi' }
}

describe('recorded upstream failures, every pair', () => {
  const ups = {} as Record<Proto, FakeUpstream>
  let gw: TestGateway
  let key: string
  beforeAll(async () => {
    for (const p of PROTOS) ups[p] = startFakeUpstream()
    const base = perProtocolCatalog(ups, { upstreamModel: 'up' })
    const mixed = { ...base.models[0]!, id: 't/mixed', name: 'mixed', routes: PROTOS.map((p) => ({ gateway: `gw-${p}`, model: 'up' })) }
    const catalog = { ...base, models: [...base.models, mixed] }
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
    key = (await gw.user(5, { rpm: 10_000 })).key
  })
  afterAll(async () => {
    await gw.stop()
    for (const p of PROTOS) ups[p].stop()
  })
  const post = (inbound: Inbound, p: Proto, stream: boolean) =>
    gw.request(PATH[inbound], {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body(inbound, `t/${p}`, stream)),
    })
  const logOf = async (res: Response) => {
    await gw.settled()
    return (
      await gw.runtime.deps.db
        .select()
        .from(requestLogs)
        .where(eq(requestLogs.id, res.headers.get('x-request-id')!))
    )[0]!
  }

  for (const inbound of INBOUNDS)
    for (const p of PROTOS)
      test(`${inbound} ← ${p}: HTTP error answers in the caller's envelope, nothing billed`, async () => {
        for (const [file, status] of HTTP_ERRORS[p]) {
          ups[p].script({ kind: 'json', body: fixtureText(p, file), status })
          const res = await post(inbound, p, false)
          const want = envelope(inbound, status === 400)
          expect([file, res.status]).toEqual([file, want.status])
          expect([file, kindOf(inbound, await res.json())]).toEqual([file, want.kind])
          const log = await logOf(res)
          expect(log.costMicros).toBe(0n)
        }
      })

  test('a recorded responses error event mid-stream: only the error (responses: response.failed, then error), in each protocol, billed as an estimate (no usage was reported)', async () => {
    const expected: Record<Inbound, string[]> = {
      chat: ['error UPSTREAM_ERROR'],
      messages: ['error api_error'],
      responses: [
        'created resp_ t/openai-responses in_progress',
        'in_progress resp_ t/openai-responses in_progress',
        'failed resp_ failed upstream_error',
        'error upstream_error',
      ],
    }
    for (const inbound of INBOUNDS) {
      ups['openai-responses'].script({
        kind: 'sse',
        text: fixtureSse('openai-responses', 'stream-error-event-insufficient-quota.chunks.jsonl'),
      })
      const res = await post(inbound, 'openai-responses', true)
      expect(render(inbound, await res.text())).toEqual(expected[inbound])
      const log = await logOf(res)
      expect(log).toMatchObject({ status: 502, errorCode: 'UPSTREAM_ERROR', usageSource: 'estimate' })
      // No answer text was delivered: at most the one-token floor of a stream that had started.
      expect(log.outputTokens).toBeLessThanOrEqual(1)
    }
  })

  test('a recorded chat error chunk after reasoning: one error event after what was delivered, billed the usage it reported', async () => {
    for (const inbound of INBOUNDS) {
      ups['openai-chat'].script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-midstream-error-openrouter.sse') })
      const res = await post(inbound, 'openai-chat', true)
      const lines = render(inbound, await res.text())
      expect(lines.filter((l) => l.startsWith('error'))).toHaveLength(1)
      expect(lines.at(-1)!).toStartWith('error')
      expect(lines.some((l) => l.includes('[DONE]') || l === 'message_stop' || l.startsWith('completed'))).toBe(false)
      if (inbound !== 'chat') expect(lines.length).toBeGreaterThan(2) // the reasoning that was streamed before the failure
      const log = await logOf(res)
      expect(log).toMatchObject({ status: 502, usageSource: 'upstream', inputTokens: 43, outputTokens: 10, reasoningTokens: 11 })
    }
  })

  test('failover crosses protocols while streaming: each inbound protocol gets one clean stream from the gateway that served', async () => {
    for (const inbound of INBOUNDS) {
      ups['openai-chat'].script({ kind: 'status', status: 503 })
      ups['anthropic-messages'].script({ kind: 'status', status: 529 })
      ups['openai-responses'].script({ kind: 'sse', text: fixtureSse('openai-responses', 'stream-text.sse'), chunkSize: 77 })
      const res = await gw.request(PATH[inbound], {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body(inbound, 't/mixed', true)),
      })
      const lines = render(inbound, await res.text())
      const text = lines.flatMap((l) => /^(text|delta 0 text|output_text\.delta 0) (.*)$/s.exec(l)?.[2] ?? []).join('')
      expect(text).toBe('4200 + 42 equals 4242.')
      expect(lines.at(-1)).toBe(
        inbound === 'chat'
          ? '[DONE]'
          : inbound === 'messages'
            ? 'message_stop'
            : 'completed completed - items message in 16 out 11 cached 0 svc',
      )
      const log = await logOf(res)
      expect(log).toMatchObject({ status: 200, gateway: 'gw-openai-responses', inputTokens: 16, outputTokens: 11 })
    }
  })
})
