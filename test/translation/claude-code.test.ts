// Claude Code's request (test/fixtures/clients/claude-code-request.json: `?beta=true`, seven
// `anthropic-beta` features, mid-conversation system messages, adaptive thinking, effort,
// context_management) through each upstream protocol: a 200 stream, and the upstream's view of
// the request — passed on unchanged to an Anthropic upstream, translated with the system
// messages in place and the effort mapped for OpenAI upstreams (docs/translation.md).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { FIXTURES_DIR, fixtureSse } from '../helpers/fixtures.ts'
import { perProtocolCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { describeServices } from '../helpers/services.ts'

const CLAUDE_CODE = JSON.parse(readFileSync(`${FIXTURES_DIR}/clients/claude-code-request.json`, 'utf8'))
const BODY = CLAUDE_CODE.body
const REMINDERS = [BODY.messages[1].content, BODY.messages[4].content[0].text]

describeServices('Claude Code through every upstream protocol (Postgres + Redis)', () => {
  let chat: FakeUpstream
  let anth: FakeUpstream
  let resp: FakeUpstream
  let gw: TestGateway
  let key: string
  beforeAll(async () => {
    chat = startFakeUpstream({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse') })
    anth = startFakeUpstream({ kind: 'sse', text: fixtureSse('anthropic-messages', 'stream-text.sse') })
    resp = startFakeUpstream({ kind: 'sse', text: fixtureSse('openai-responses', 'stream-text.sse') })
    const ups = { 'openai-chat': chat, 'anthropic-messages': anth, 'openai-responses': resp }
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, perProtocolCatalog(ups, { upstreamModel: 'up' }))
    key = (await gw.user(10, { rpm: 1_000 })).key
  })
  afterAll(async () => {
    await gw.stop()
    for (const u of [chat, anth, resp]) u.stop()
  })

  /** The fixture as Claude Code sends it, to a model routed to one upstream protocol. */
  async function send(model: string, headers: Record<string, string> = {}) {
    const res = await gw.request(CLAUDE_CODE.path, {
      method: 'POST',
      headers: { ...CLAUDE_CODE.headers, 'x-api-key': key, ...headers },
      body: JSON.stringify({ ...BODY, model }),
    })
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
  }

  test('anthropic-messages: the body passes on unchanged but for the model; the beta features and version are forwarded', async () => {
    const res = await send('t/anthropic-messages')
    expect(res.status).toBe(200)
    expect(res.type).toStartWith('text/event-stream')
    expect(res.text).toContain('event: message_stop')
    const seen = anth.seen.at(-1)!
    expect(seen.path).toBe('/v1/messages')
    expect(seen.body).toEqual({ ...BODY, model: 'up' })
    expect(seen.headers['anthropic-beta']).toBe(CLAUDE_CODE.headers['anthropic-beta'])
    expect(seen.headers['anthropic-version']).toBe('2023-06-01')
    expect(seen.headers['x-api-key']).toBe('sk-upstream-secret')
  })

  test('anthropic-messages: a feature the route cannot honour (the caller’s OAuth) is dropped, not refused', async () => {
    const beta = `oauth-2025-04-20,${CLAUDE_CODE.headers['anthropic-beta']}`
    expect((await send('t/anthropic-messages', { 'anthropic-beta': beta })).status).toBe(200)
    expect(anth.seen.at(-1)!.headers['anthropic-beta']).toBe(CLAUDE_CODE.headers['anthropic-beta'])
  })

  test('openai-chat: system messages at their positions, effort as reasoning_effort, Anthropic-only fields and headers left out', async () => {
    const res = await send('t/openai-chat')
    expect(res.status).toBe(200)
    expect(res.text).toContain('event: message_stop')
    const seen = chat.seen.at(-1)!
    const messages = seen.body.messages as { role: string; content: unknown }[]
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'system', 'assistant', 'tool', 'system'])
    expect(messages[0]!.content).toStartWith('x-anthropic-billing-header')
    expect([messages[2]!.content, messages[5]!.content]).toEqual(REMINDERS)
    expect(seen.body).toMatchObject({ model: 'up', reasoning_effort: 'high', max_completion_tokens: 32_000, stream: true })
    expect(seen.body.user).toBe(BODY.metadata.user_id)
    for (const field of ['thinking', 'output_config', 'context_management', 'metadata', 'max_tokens'])
      expect(seen.body).not.toHaveProperty(field)
    expect(seen.headers).not.toHaveProperty('anthropic-beta')
    expect(seen.headers).not.toHaveProperty('anthropic-version')
  })

  test('openai-responses: system messages as developer items in place, effort as reasoning.effort', async () => {
    const res = await send('t/openai-responses')
    expect(res.status).toBe(200)
    expect(res.text).toContain('event: message_stop')
    const seen = resp.seen.at(-1)!
    const input = seen.body.input as { type: string; role?: string; content?: { text: string }[] }[]
    expect(input.map((i) => i.role ?? i.type)).toEqual(['user', 'developer', 'function_call', 'function_call_output', 'developer'])
    expect([input[1]!.content![0]!.text, input[4]!.content![0]!.text]).toEqual(REMINDERS)
    expect(seen.body.instructions).toContain("You are Claude Code, Anthropic's official CLI for Claude.")
    expect(seen.body.reasoning).toEqual({ effort: 'high', summary: 'auto' })
    for (const field of ['thinking', 'output_config', 'context_management', 'metadata']) expect(seen.body).not.toHaveProperty(field)
    expect(seen.headers).not.toHaveProperty('anthropic-beta')
  })

  test('count_tokens with ?beta=true: counted by the Anthropic upstream with the beta features, estimated elsewhere', async () => {
    const count = (model: string) =>
      gw.request('/v1/messages/count_tokens?beta=true', {
        method: 'POST',
        headers: { ...CLAUDE_CODE.headers, 'x-api-key': key },
        body: JSON.stringify({ model, system: BODY.system, messages: BODY.messages, tools: BODY.tools }),
      })
    anth.script({ kind: 'json', body: { input_tokens: 4_321 } })
    const counted = await count('t/anthropic-messages')
    expect(counted.status).toBe(200)
    expect(await counted.json()).toEqual({ input_tokens: 4_321 })
    expect(anth.seen.at(-1)!.path).toBe('/v1/messages/count_tokens')
    expect(anth.seen.at(-1)!.headers['anthropic-beta']).toBe(CLAUDE_CODE.headers['anthropic-beta'])
    const chatCalls = chat.seen.length
    const estimated = await count('t/openai-chat')
    expect(estimated.status).toBe(200)
    expect(((await estimated.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(100)
    expect(chat.seen.length).toBe(chatCalls)
  })
})
