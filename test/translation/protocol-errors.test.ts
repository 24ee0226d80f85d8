// Each protocol's own error envelope and statuses, and its mid-stream failure event.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse } from '../helpers/fixtures.ts'
import { describeServices } from '../helpers/services.ts'

describeServices('messages and responses errors (Postgres + Redis)', () => {
  let up: FakeUpstream
  let gw: TestGateway
  beforeAll(async () => {
    up = startFakeUpstream({ kind: 'status', status: 500 })
    const model = (id: string, gateway: string) => ({
      id,
      name: id,
      provider: 'test',
      contextWindow: 100_000,
      capabilities: ['text'],
      pricing: { input: 1, output: 2 },
      routes: [{ gateway, model: 'secret-upstream-model' }],
    })
    const catalog: CatalogFile = {
      gateways: [
        { id: 'anth', protocol: 'anthropic-messages', baseUrl: `${up.url}/v1`, timeoutMs: 1_000 },
        { id: 'resp', protocol: 'openai-responses', baseUrl: `${up.url}/v1`, timeoutMs: 1_000 },
        { id: 'chat', protocol: 'openai-chat', baseUrl: `${up.url}/v1`, timeoutMs: 1_000 },
      ],
      models: [model('t/anth', 'anth'), model('t/resp', 'resp'), model('t/chat', 'chat')],
    }
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, catalog)
  })
  afterAll(async () => {
    await gw.stop()
    up.stop()
  })

  const post = (path: string, key: string, body: unknown) =>
    gw.request(path, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body),
    })
  const msg = (extra: Record<string, unknown> = {}) => ({
    model: 't/anth',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'hi' }],
    ...extra,
  })
  const resp = (extra: Record<string, unknown> = {}) => ({ model: 't/resp', input: 'hi', ...extra })

  test('messages: native error types and statuses', async () => {
    const u = await gw.user(1, { rpm: 1 })
    const cases: [unknown, string, number, string][] = [
      [msg({ max_tokens: 0 }), u.key, 400, 'invalid_request_error'],
      [msg({ messages: [] }), u.key, 400, 'invalid_request_error'],
      [msg({ model: 't/none' }), u.key, 404, 'not_found_error'],
      [msg(), 'sk-wrong', 401, 'authentication_error'],
    ]
    for (const [body, key, status, type] of cases) {
      const res = await post('/v1/messages', key, body)
      expect(res.status).toBe(status)
      const j = (await res.json()) as any
      expect(j.type).toBe('error')
      expect(j.error.type).toBe(type)
      expect(typeof j.error.message).toBe('string')
    }
    const poor = await gw.user(0.000001)
    const broke = await post('/v1/messages', poor.key, msg())
    expect(broke.status).toBe(402)
    expect(((await broke.json()) as any).error.type).toBe('billing_error')
    const failed = await post('/v1/messages', u.key, msg())
    expect(failed.status).toBe(502)
    const failedText = await failed.text()
    expect(JSON.parse(failedText).error.type).toBe('api_error')
    expect(failedText).not.toContain('secret-upstream-model')
    const limited = await post('/v1/messages', u.key, msg())
    expect(limited.status).toBe(429)
    expect(((await limited.json()) as any).error.type).toBe('rate_limit_error')
    expect(limited.headers.get('retry-after')).not.toBeNull()
  })

  test('responses: validation issues, auth, unknown model, stateless previous_response_id', async () => {
    const u = await gw.user(1)
    const bad = await post('/v1/responses', u.key, resp({ temperature: 3, max_output_tokens: 0 }))
    expect(bad.status).toBe(400)
    const badBody = (await bad.json()) as any
    expect(badBody.error.type).toBe('invalid_request_error')
    expect(badBody.error.details.issues.map((i: any) => i.path).sort()).toEqual(['max_output_tokens', 'temperature'])
    expect(bad.headers.get('x-request-id')).toMatch(/^resp_/)
    const auth = await gw.request('/v1/responses', {
      method: 'POST',
      headers: { authorization: 'Bearer sk-nope', 'content-type': 'application/json' },
      body: JSON.stringify(resp()),
    })
    expect(auth.status).toBe(401)
    expect(((await auth.json()) as any).error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' })
    const unknown = await post('/v1/responses', u.key, resp({ model: 't/none' }))
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as any).error.code).toBe('model_not_found')
    const prev = await post('/v1/responses', u.key, resp({ previous_response_id: 'resp_abc' }))
    expect(prev.status).toBe(400)
    expect(((await prev.json()) as any).error).toMatchObject({ type: 'invalid_request_error', param: 'previous_response_id' })
  })

  test('chat unknown model stays 503 MODEL_UNAVAILABLE (docs/api.md "Status and code table")', async () => {
    const u = await gw.user(1)
    const res = await post('/v1/chat/completions', u.key, { model: 't/none', messages: [{ role: 'user', content: 'x' }] })
    expect(res.status).toBe(503)
  })

  test('mid-stream failure: messages ends with one error event and no message_stop', async () => {
    const u = await gw.user(1)
    const sse = fixtureSse('anthropic-messages', 'stream-text.sse')
    up.script({ kind: 'drop', text: sse, bytes: sse.indexOf('event: content_block_stop') })
    const res = await post('/v1/messages', u.key, msg({ stream: true }))
    const text = await res.text()
    expect(text.match(/event: error/g)).toHaveLength(1)
    expect(text.trimEnd().split('\n\n').at(-1)).toStartWith('event: error')
    expect(text).not.toContain('message_stop')
  })

  test('mid-stream failure: responses ends with one error event and no response.completed; translated streams too', async () => {
    const u = await gw.user(1)
    const sse = fixtureSse('openai-responses', 'stream-text.sse')
    up.script({ kind: 'drop', text: sse, bytes: sse.indexOf('event: response.output_text.done') })
    const res = await post('/v1/responses', u.key, resp({ stream: true }))
    const text = await res.text()
    expect(text.match(/event: error/g)).toHaveLength(1)
    expect(text).not.toContain('response.completed')
    const errEvent = JSON.parse(text.trimEnd().split('\n\n').at(-1)!.split('\n')[1]!.slice(6))
    expect(errEvent).toMatchObject({ type: 'error', code: 'upstream_error' })
    expect(typeof errEvent.sequence_number).toBe('number')
    expectFailedBeforeError(text, res.headers.get('x-request-id'))

    const chatSse = fixtureSse('openai-chat', 'stream-text-usage.sse')
    up.script({ kind: 'drop', text: chatSse, bytes: chatSse.indexOf('data:', 1500) })
    const translated = await post('/v1/messages', u.key, { ...msg({ stream: true }), model: 't/chat' })
    const t2 = await translated.text()
    expect(t2.match(/event: error/g)).toHaveLength(1)
    expect(t2).not.toContain('message_stop')
  })

  test('mid-stream failure: a translated responses stream sends response.failed, then the error event', async () => {
    const u = await gw.user(1)
    const chatSse = fixtureSse('openai-chat', 'stream-text-usage.sse')
    up.script({ kind: 'drop', text: chatSse, bytes: chatSse.indexOf('data:', 1500) })
    const res = await post('/v1/responses', u.key, { ...resp({ stream: true }), model: 't/chat' })
    const text = await res.text()
    expect(text).not.toContain('response.completed')
    expectFailedBeforeError(text, res.headers.get('x-request-id'))
  })
})

/** The last two frames: response.failed (the response with its error), then the error event, numbered in turn. */
function expectFailedBeforeError(text: string, requestId: string | null) {
  const frames = text.trimEnd().split('\n\n')
  const data = (frame: string) => JSON.parse(frame.split('\n')[1]!.slice(6))
  expect(frames.at(-2)!).toStartWith('event: response.failed\n')
  expect(frames.at(-1)!).toStartWith('event: error\n')
  expect(text.match(/event: response\.failed/g)).toHaveLength(1)
  const failed = data(frames.at(-2)!)
  const error = data(frames.at(-1)!)
  expect(failed.type).toBe('response.failed')
  expect(failed.response.status).toBe('failed')
  expect(failed.response.error).toEqual({ code: 'upstream_error', message: error.message })
  expect(failed.response.id).toStartWith('resp_')
  expect(requestId).not.toBeNull()
  expect(error.sequence_number).toBe(failed.sequence_number + 1)
}
