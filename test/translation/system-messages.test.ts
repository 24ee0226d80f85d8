// Mid-conversation system messages through a gateway (docs/translation.md "Mid-conversation
// system messages"): chat and responses clients' later instructions reach an Anthropic upstream
// as system messages inside `messages`, placed where Anthropic allows them; a misplaced one, an
// unknown role, and (on a translated route) an unknown block type are 400s in the messages
// envelope naming the position, before any upstream call.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureText } from '../helpers/fixtures.ts'
import { perProtocolCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { describeServices } from '../helpers/services.ts'

const CALL = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }
const TOOLS = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }]

describeServices('mid-conversation system messages (Postgres + Redis)', () => {
  let chat: FakeUpstream
  let anth: FakeUpstream
  let resp: FakeUpstream
  let gw: TestGateway
  let key: string
  let userId: string
  beforeAll(async () => {
    chat = startFakeUpstream({ kind: 'json', body: fixtureText('openai-chat', 'json-text.json') })
    anth = startFakeUpstream({ kind: 'json', body: fixtureText('anthropic-messages', 'json-text.json') })
    resp = startFakeUpstream({ kind: 'json', body: fixtureText('openai-responses', 'json-text.json') })
    const ups = { 'openai-chat': chat, 'anthropic-messages': anth, 'openai-responses': resp }
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, perProtocolCatalog(ups, { upstreamModel: 'up' }))
    ;({ key, userId } = await gw.user(10, { rpm: 1_000 }))
  })
  afterAll(async () => {
    await gw.stop()
    for (const u of [chat, anth, resp]) u.stop()
  })
  const post = async (path: string, body: unknown) => {
    const res = await gw.request(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as any }
  }
  const calls = () => chat.seen.length + anth.seen.length + resp.seen.length

  test('chat → Anthropic: the leading system message is `system`; a developer message between a tool call and its result follows the result', async () => {
    const res = await post('/v1/chat/completions', {
      model: 't/anthropic-messages',
      tools: TOOLS,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: null, tool_calls: [CALL] },
        { role: 'developer', content: 'Answer in Norwegian from now on.' },
        { role: 'tool', tool_call_id: 'call_1', content: '12°C, rain' },
      ],
    })
    expect(res.status).toBe(200)
    const seen = anth.seen.at(-1)!.body
    expect(seen.system).toBe('Be brief.')
    expect(seen.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'system'])
    expect(seen.messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'call_1' })
    expect(seen.messages[3]).toEqual({ role: 'system', content: 'Answer in Norwegian from now on.' })
  })

  test('responses → Anthropic: a developer item after the user turn stays a system message, last', async () => {
    const res = await post('/v1/responses', {
      model: 't/anthropic-messages',
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: 'Hi' },
        { role: 'developer', content: [{ type: 'input_text', text: 'The user is on a phone.' }] },
      ],
    })
    expect(res.status).toBe(200)
    const seen = anth.seen.at(-1)!.body
    expect(seen.system).toBe('Be brief.')
    expect(seen.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'system', content: 'The user is on a phone.' },
    ])
  })

  test('chat → responses: a later system message is a developer item at its position', async () => {
    const res = await post('/v1/chat/completions', {
      model: 't/openai-responses',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'Tell me a joke' },
        { role: 'system', content: 'Keep it clean.' },
      ],
    })
    expect(res.status).toBe(200)
    const input = resp.seen.at(-1)!.body.input
    expect(input.map((i: { role: string }) => i.role)).toEqual(['user', 'assistant', 'user', 'developer'])
    expect(input[3].content).toEqual([{ type: 'input_text', text: 'Keep it clean.' }])
    expect(resp.seen.at(-1)!.body.instructions).toBeUndefined()
  })

  const turns = (...roles: string[]) =>
    roles.map((role) => ({ role, content: role === 'assistant' ? [{ type: 'text', text: 'ok' }] : 'text' }))

  test.each([
    ['a system message first', turns('system', 'user'), 'messages[0].role', 'cannot be the first message'],
    ['a system message after an assistant turn', turns('user', 'assistant', 'system'), 'messages[2].role', 'must follow a user message'],
    [
      'a system message before a user turn',
      turns('user', 'system', 'user'),
      'messages[1].role',
      'must be the last message or be followed by an assistant',
    ],
    ['a system message next to another', turns('user', 'system', 'system'), 'messages[1].role', 'next to another system message'],
    ['an unknown role', turns('user', 'tool'), 'messages[1].role', 'must be one of user, assistant, system (got "tool")'],
  ])('%s, on native and translated routes: 400 naming the position, no upstream call', async (_, messages, path, words) => {
    for (const model of ['t/anthropic-messages', 't/openai-chat']) {
      const before = calls()
      const res = await post('/v1/messages', { model, max_tokens: 100, messages })
      expect(res.status).toBe(400)
      expect(res.body.type).toBe('error')
      expect(res.body.error.type).toBe('invalid_request_error')
      expect(res.body.error.message).toStartWith(`${path}: `)
      expect(res.body.error.message).toContain(words)
      expect(calls()).toBe(before)
    }
  })

  test('a non-text block in a system message is a 400 naming it', async () => {
    const messages = [
      { role: 'user', content: 'Hi' },
      { role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://img.example/a.png' } }] },
    ]
    const res = await post('/v1/messages', { model: 't/openai-chat', max_tokens: 100, messages })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toStartWith('messages[1].content[0].type: ')
  })

  test('an unknown content block type: passed on to an Anthropic upstream, a 400 naming it on a translated route', async () => {
    const block = { type: 'future_block', payload: 'x' }
    const body = (model: string) => ({
      model,
      max_tokens: 100,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }, block] }],
    })
    expect((await post('/v1/messages', body('t/anthropic-messages'))).status).toBe(200)
    expect(anth.seen.at(-1)!.body.messages[0].content[1]).toEqual(block)
    await gw.settled()
    const books = await gw.books(userId)
    for (const model of ['t/openai-chat', 't/openai-responses']) {
      const before = calls()
      const res = await post('/v1/messages', body(model))
      expect(res.status).toBe(400)
      expect(res.body.error.type).toBe('invalid_request_error')
      expect(res.body.error.message).toStartWith('messages[0].content[1].type: ')
      expect(res.body.error.message).toContain('"future_block"')
      expect(calls()).toBe(before)
    }
    await gw.settled()
    expect(await gw.books(userId)).toEqual(books)
  })
})
