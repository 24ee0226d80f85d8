// Every (inbound protocol × upstream protocol) pair, JSON and streaming, text and parallel tool
// calls, replaying recorded upstream answers: the client sees the same text and tool calls in its
// own protocol, the call is billed the tokens the upstream reported, and nothing upstream-specific
// (model name, ids, host, key) reaches the client.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { requestLogs } from '../../src/db/schema/index.ts'
import { startTestGateway, type TestGateway, perProtocolCatalog } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse, fixtureText } from '../helpers/fixtures.ts'
import {
  clientJsonView,
  clientStreamView,
  upstreamJsonView,
  upstreamOutputTokens,
  upstreamStreamView,
  type Inbound,
  type Proto,
} from './fixture-views.ts'

type Kind = 'text' | 'tools' | 'truncated' | 'reasoning' | 'cache'
const KINDS: Kind[] = ['text', 'tools', 'truncated', 'reasoning', 'cache']
const FIXTURES: Record<Proto, Record<Kind, [string, string]>> = {
  'openai-chat': {
    text: ['json-text.json', 'stream-text-usage.sse'],
    tools: ['json-tool-calls-two.json', 'stream-tool-calls-two.sse'],
    truncated: ['json-max-tokens-length.json', 'stream-max-tokens-length.sse'],
    reasoning: ['json-reasoning-content-deepseek.json', 'stream-reasoning-content-deepseek.chunks.jsonl'],
    cache: ['json-cached-tokens.json', 'stream-text-usage.sse'],
  },
  'anthropic-messages': {
    text: ['json-text.json', 'stream-text.sse'],
    tools: ['json-tool-use-two.json', 'stream-tool-use-two.sse'],
    truncated: ['json-max-tokens.json', 'stream-max-tokens.sse'],
    reasoning: ['json-thinking.json', 'stream-thinking.chunks.jsonl'],
    cache: ['json-cache-read.json', 'stream-cache-read.sse'],
  },
  'openai-responses': {
    text: ['json-text.json', 'stream-text.sse'],
    tools: ['json-function-calls-two.json', 'stream-function-calls-two.sse'],
    truncated: ['json-incomplete-max-output-tokens.json', 'stream-incomplete-max-output-tokens.sse'],
    reasoning: ['json-reasoning.json', 'stream-reasoning-summary.sse'],
    cache: ['json-cached-tokens.json', 'stream-web-search-reasoning-cached.sse'],
  },
}
const PROTOS = Object.keys(FIXTURES) as Proto[]
const INBOUNDS: Inbound[] = ['chat', 'messages', 'responses']
const PATH: Record<Inbound, string> = { chat: '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses' }

function requestBody(inbound: Inbound, model: string, stream: boolean, tools: boolean) {
  const schema = { type: 'object', properties: { location: { type: 'string' } } }
  if (inbound === 'chat')
    return {
      model,
      stream,
      messages: [{ role: 'user', content: 'What is the weather?' }],
      ...(tools ? { tools: [{ type: 'function', function: { name: 'get_weather', parameters: schema } }] } : {}),
    }
  if (inbound === 'messages')
    return {
      model,
      stream,
      max_tokens: 512,
      messages: [{ role: 'user', content: 'What is the weather?' }],
      ...(tools ? { tools: [{ name: 'get_weather', input_schema: schema }] } : {}),
    }
  return {
    model,
    stream,
    input: 'What is the weather?',
    ...(tools ? { tools: [{ type: 'function', name: 'get_weather', parameters: schema }] } : {}),
  }
}

/**
 * Upstream identity that must never reach a client: model names, host, key — and on the
 * responses protocol also the upstream's response id (docs/api.md "Upstream identity": id and model are the service's).
 * Chat and messages may show the upstream's completion id (svc.upstreamRequestId reports it).
 */
function secretsOf(inbound: Inbound, body: string): string[] {
  const found = new Set<string>(['sk-upstream-secret', '127.0.0.1', 'upstream-model-name'])
  for (const m of body.matchAll(/"model"\s*:\s*"([^"]+)"/g)) found.add(m[1]!)
  if (inbound === 'responses') for (const m of body.matchAll(/"id"\s*:\s*"(resp_[A-Za-z0-9]+)"/g)) found.add(m[1]!)
  return [...found]
}

describe('translation between every pair of protocols', () => {
  const ups = {} as Record<Proto, FakeUpstream>
  let gw: TestGateway
  beforeAll(async () => {
    for (const p of PROTOS) ups[p] = startFakeUpstream()
    const catalog = perProtocolCatalog(ups, {
      prefix: 'test',
      capabilities: ['text', 'tool-calling'],
      pricing: { input: 1, output: 2, cacheRead: 0.5, cacheWrite: 1.25 },
    })
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
  })
  afterAll(async () => {
    await gw.stop()
    for (const p of PROTOS) ups[p].stop()
  })

  for (const inbound of INBOUNDS)
    for (const upstream of PROTOS)
      for (const stream of [false, true])
        for (const kind of KINDS) {
          test(`${inbound} ← ${upstream} (${stream ? 'stream' : 'json'}, ${kind})`, async () => {
            const u = await gw.user(5)
            const file = FIXTURES[upstream][kind][stream ? 1 : 0]
            const raw = stream ? fixtureSse(upstream, file) : fixtureText(upstream, file)
            ups[upstream].script(stream ? { kind: 'sse', text: raw, chunkSize: 61 } : { kind: 'json', body: raw })
            const res = await gw.request(PATH[inbound], {
              method: 'POST',
              headers: { 'x-api-key': u.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
              body: JSON.stringify(requestBody(inbound, `test/${upstream}`, stream, kind === 'tools')),
            })
            const text = await res.text()
            expect(res.status).toBe(200)
            const requestId = res.headers.get('x-request-id')!

            const expected = stream ? upstreamStreamView(upstream, raw) : upstreamJsonView(upstream, JSON.parse(raw))
            const seen = stream ? clientStreamView(inbound, text) : clientJsonView(inbound, JSON.parse(text))
            expect(seen.text).toBe(expected.text)
            expect(seen.tools).toEqual(expected.tools)
            expect(seen.stop).toBe(expected.stop)
            expect(seen.cached).toBe(expected.cached)
            if (kind === 'tools') expect(seen.tools.length).toBe(2)
            if (kind === 'truncated') expect(seen.stop).toBe('max_tokens')
            if (kind === 'reasoning') {
              expect(expected.reasoning.length).toBeGreaterThan(0)
              expect(seen.reasoning).toBe(expected.reasoning)
            }
            if (kind === 'cache' && !(upstream === 'openai-chat' && stream)) expect(seen.cached).toBeGreaterThan(0)

            // The upstream got its own protocol, with the route's model name.
            const sent = ups[upstream].seen.at(-1)!
            expect(sent.path).toBe(
              upstream === 'openai-chat' ? '/v1/chat/completions' : upstream === 'anthropic-messages' ? '/v1/messages' : '/v1/responses',
            )
            expect(sent.body.model).toBe('upstream-model-name')

            // The service's identity only.
            const lower = (text + JSON.stringify([...res.headers.entries()])).toLowerCase()
            for (const s of secretsOf(inbound, raw)) expect(lower).not.toContain(s.toLowerCase())
            if (inbound === 'responses') {
              const id = stream
                ? JSON.parse(
                    text
                      .split('\n')
                      .find((l) => l.startsWith('data: {"type":"response.created"'))!
                      .slice(6),
                  ).response.id
                : JSON.parse(text).id
              expect(id).toBe(requestId)
            }

            // Billed what the upstream reported.
            await gw.settled()
            const [log] = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.id, requestId))
            expect(log!.usageSource).toBe('upstream')
            expect(log!.outputTokens).toBe(upstreamOutputTokens(upstream, raw, stream))
            expect(log!.cacheReadTokens).toBe(expected.cached)
            expect(log!.costMicros).toBeGreaterThan(0n)
            const books = await gw.books(u.userId)
            expect(books.ledgerSum).toBe(books.balance)
          })
        }
})

describe('a failure mid-stream, for every pair', () => {
  const ups = {} as Record<Proto, FakeUpstream>
  let gw: TestGateway
  beforeAll(async () => {
    for (const p of PROTOS) ups[p] = startFakeUpstream()
    const catalog = perProtocolCatalog(ups, { prefix: 'test' })
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
  })
  afterAll(async () => {
    await gw.stop()
    for (const p of PROTOS) ups[p].stop()
  })

  // What must never follow an error: each protocol's normal end.
  const NORMAL_END: Record<Inbound, string> = { chat: '[DONE]', messages: 'message_stop', responses: 'response.completed' }
  const ERROR_FRAME: Record<Inbound, RegExp> = { chat: /^data: \{"error":/m, messages: /^event: error$/m, responses: /^event: error$/m }

  for (const inbound of INBOUNDS)
    for (const upstream of PROTOS)
      test(`${inbound} ← ${upstream}: the upstream drops mid-answer`, async () => {
        const u = await gw.user(5)
        const sse = fixtureSse(upstream, FIXTURES[upstream].text[1])
        ups[upstream].script({ kind: 'drop', text: sse, bytes: Math.floor(sse.length * 0.6) })
        const res = await gw.request(PATH[inbound], {
          method: 'POST',
          headers: { 'x-api-key': u.key, 'content-type': 'application/json' },
          body: JSON.stringify(requestBody(inbound, `test/${upstream}`, true, false)),
        })
        const text = await res.text()
        expect(res.status).toBe(200)
        expect(text.match(new RegExp(ERROR_FRAME[inbound].source, 'gm'))).toHaveLength(1)
        expect(text).not.toContain(NORMAL_END[inbound])
        expect(text.trimEnd().split('\n\n').at(-1)!).toMatch(ERROR_FRAME[inbound])
        await gw.settled()
        const [log] = await gw.runtime.deps.db
          .select()
          .from(requestLogs)
          .where(eq(requestLogs.id, res.headers.get('x-request-id')!))
        expect(log!.status).toBe(502)
        expect(log!.costMicros).toBeGreaterThan(0n)
        const books = await gw.books(u.userId)
        expect(books.ledgerSum).toBe(books.balance)
      })
})
