// Reasoning across protocols: it reaches every client in that protocol's own shape, and its
// opaque proof (Anthropic's signature, OpenAI's encrypted_content) survives a round trip through
// the other vendor's protocol back to an upstream of its own kind.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson, fixtureSse, fixtureText } from '../helpers/fixtures.ts'

describe('reasoning and thinking across protocols', () => {
  let anth: FakeUpstream
  let resp: FakeUpstream
  let chat: FakeUpstream
  let gw: TestGateway
  let key: string
  beforeAll(async () => {
    anth = startFakeUpstream()
    resp = startFakeUpstream()
    chat = startFakeUpstream()
    const model = (id: string, gateway: string) => ({
      id,
      name: id,
      provider: 't',
      contextWindow: 200_000,
      capabilities: ['reasoning'],
      pricing: { input: 1, output: 2 },
      routes: [{ gateway, model: 'up' }],
    })
    const catalog: CatalogFile = {
      gateways: [
        { id: 'anth', protocol: 'anthropic-messages', baseUrl: `${anth.url}/v1` },
        { id: 'resp', protocol: 'openai-responses', baseUrl: `${resp.url}/v1` },
        { id: 'chat', protocol: 'openai-chat', baseUrl: `${chat.url}/v1` },
      ],
      models: [model('t/anth', 'anth'), model('t/resp', 'resp'), model('t/chat', 'chat')],
    }
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
    key = (await gw.user(5)).key
  })
  afterAll(async () => {
    await gw.stop()
    for (const u of [anth, resp, chat]) u.stop()
  })
  const post = async (path: string, body: unknown) => {
    const res = await gw.request(path, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(res.status).toBe(200)
    return res
  }

  test('Anthropic thinking → responses client (signature carried) → back to Anthropic intact', async () => {
    const fixture = fixtureJson('anthropic-messages', 'json-thinking.json')
    const thinking = fixture.content.find((b: any) => b.type === 'thinking')
    anth.script({ kind: 'json', body: fixture })
    const r = (await (await post('/v1/responses', { model: 't/anth', input: 'Think', reasoning: { effort: 'low' } })).json()) as any
    const item = r.output.find((o: any) => o.type === 'reasoning')
    expect(item.summary[0].text).toBe(thinking.thinking)
    expect(item.encrypted_content).toBe(`tg1.a.${thinking.signature}`)
    expect(anth.seen.at(-1)!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 })

    anth.script({ kind: 'json', body: fixtureText('anthropic-messages', 'json-text.json') })
    await post('/v1/responses', {
      model: 't/anth',
      input: [{ role: 'user', content: 'Think' }, ...r.output, { role: 'user', content: 'Go on' }],
    })
    const sent = anth.seen.at(-1)!.body.messages[1].content
    expect(sent[0]).toEqual({ type: 'thinking', thinking: thinking.thinking, signature: thinking.signature })
  })

  test('OpenAI encrypted reasoning → messages client (in the signature) → back to responses intact; never to Anthropic', async () => {
    const fixture = fixtureJson('openai-responses', 'json-reasoning.json')
    const reasoning = fixture.output.find((o: any) => o.type === 'reasoning')
    reasoning.encrypted_content = 'gAAAAB-opaque-blob'
    resp.script({ kind: 'json', body: fixture })
    const m = (await (
      await post('/v1/messages', { model: 't/resp', max_tokens: 500, messages: [{ role: 'user', content: 'Count primes' }] })
    ).json()) as any
    const block = m.content.find((b: any) => b.type === 'thinking')
    expect(block.thinking).toBe(reasoning.summary.map((s: any) => s.text).join('\n'))
    expect(block.signature).toBe(`tg1.o.${reasoning.id}.gAAAAB-opaque-blob`)

    const history = [
      { role: 'user', content: 'Count primes' },
      { role: 'assistant', content: m.content },
      { role: 'user', content: 'Thanks' },
    ]
    resp.script({ kind: 'json', body: fixtureText('openai-responses', 'json-text.json') })
    await post('/v1/messages', { model: 't/resp', max_tokens: 500, messages: history })
    const item = resp.seen.at(-1)!.body.input.find((i: any) => i.type === 'reasoning')
    expect(item).toMatchObject({ type: 'reasoning', id: reasoning.id, encrypted_content: 'gAAAAB-opaque-blob' })

    anth.script({ kind: 'json', body: fixtureText('anthropic-messages', 'json-text.json') })
    await post('/v1/messages', { model: 't/anth', max_tokens: 500, messages: history })
    const toAnthropic = JSON.stringify(anth.seen.at(-1)!.body)
    expect(toAnthropic).not.toContain('gAAAAB-opaque-blob')
    expect(toAnthropic).not.toContain('"thinking"')
  })

  test('thinking streamed from Anthropic reaches a chat client as reasoning_content, and a responses client with its signature', async () => {
    const sse = fixtureSse('anthropic-messages', 'stream-thinking-signature.sse')
    anth.script({ kind: 'sse', text: sse, chunkSize: 120 })
    const text = await (
      await post('/v1/chat/completions', { model: 't/anth', stream: true, messages: [{ role: 'user', content: 'Think' }] })
    ).text()
    const reasoning = text
      .split('\n\n')
      .filter((f) => f.startsWith('data: {'))
      .map((f) => JSON.parse(f.slice(6)).choices?.[0]?.delta?.reasoning_content ?? '')
      .join('')
    const expected = sse
      .split('\n')
      .filter((l) => l.startsWith('data:') && l.includes('thinking_delta'))
      .map((l) => JSON.parse(l.slice(5)).delta.thinking)
      .join('')
    expect(reasoning).toBe(expected)
    expect(reasoning.length).toBeGreaterThan(10)

    anth.script({ kind: 'sse', text: sse, chunkSize: 120 })
    const rtext = await (await post('/v1/responses', { model: 't/anth', stream: true, input: 'Think' })).text()
    const done = JSON.parse(
      rtext
        .split('\n')
        .find((l) => l.startsWith('data: {"type":"response.completed"'))!
        .slice(6),
    )
    const item = done.response.output.find((o: any) => o.type === 'reasoning')
    expect(item.summary[0].text).toBe(expected)
    expect(item.encrypted_content).toStartWith('tg1.a.')
  })
})
