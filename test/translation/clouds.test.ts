// The cloud wires end to end (docs/providers.md "Cloud providers"), each against a local fake that
// checks its auth the cloud's way: Bedrock's Anthropic and Converse wires (every request's SigV4
// recomputed), Vertex's Anthropic wire and Gemini's OpenAI-compatible endpoint (Google JWT bearer
// tokens), Azure OpenAI with Entra ID tokens. Over the three inbound protocols × JSON and stream:
// answered, translated faithfully (compared with independent readers of the upstream answer),
// billed exactly from the upstream's usage; the upstream got its own shape of body.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { requestLogs } from '../../src/db/schema/index.ts'
import {
  bedrockChunks,
  anthropicEventsOf,
  type FakeCloud,
  startFakeBedrock,
  startFakeEntra,
  startFakeGoogle,
  serviceAccountFile,
  type TokenCloud,
} from '../helpers/fake-clouds.ts'
import { CONVERSE_TEXT, CONVERSE_TOOLS, converseFrames } from '../helpers/converse-answers.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'
import { startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { clientJsonView, clientStreamView, type Inbound, upstreamJsonView, upstreamStreamView, type View } from './fixture-views.ts'

const INBOUNDS: Inbound[] = ['chat', 'messages', 'responses']
const PATH: Record<Inbound, string> = { chat: '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses' }
const AWS_KEYS = { AKIATOLLGATETEST: 'bedrock-test-secret-key' }
const EVENT_STREAM = 'application/vnd.amazon.eventstream'
const TENANT = { tenantId: 'tenant-0001', clientId: 'app-0001', clientSecret: 'entra-test-secret' }

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

const model = (id: string, gateway: string, upstreamModel: string): CatalogFile['models'][number] => ({
  id,
  name: id,
  provider: 'cloud',
  contextWindow: 200_000,
  capabilities: ['text', 'tool-calling'],
  pricing: { input: 1, output: 2, cacheRead: 0.5, cacheWrite: 1.25 },
  routes: [{ gateway, model: upstreamModel }],
})

describe('the cloud wires, every inbound protocol, JSON and stream', () => {
  let bedrock: FakeCloud
  let google: TokenCloud
  let entra: TokenCloud
  let gw: TestGateway
  beforeAll(async () => {
    bedrock = startFakeBedrock('us-east-1', AWS_KEYS)
    // The key file's token_uri is overridden by the gateway's tokenUrl (the fake's port is not known yet).
    const sa = await serviceAccountFile('https://oauth2.googleapis.com/token')
    google = startFakeGoogle(sa.publicKey, sa.email)
    entra = startFakeEntra(TENANT)
    const vertexBase = `${google.url}/v1/projects/test-project/locations/us-east5`
    const catalog: CatalogFile = {
      gateways: [
        {
          id: 'bedrock',
          protocol: 'bedrock-anthropic',
          baseUrl: bedrock.url,
          auth: { type: 'aws-sigv4', region: 'us-east-1', accessKeyId: 'env:TEST_AWS_KEY_ID', secretAccessKey: 'env:TEST_AWS_SECRET' },
        },
        {
          id: 'bedrock-converse',
          protocol: 'bedrock-converse',
          baseUrl: bedrock.url,
          auth: { type: 'aws-sigv4', region: 'us-east-1', accessKeyId: 'env:TEST_AWS_KEY_ID', secretAccessKey: 'env:TEST_AWS_SECRET' },
        },
        {
          id: 'vertex',
          protocol: 'vertex-anthropic',
          baseUrl: vertexBase,
          auth: { type: 'google-service-account', credentials: `file:${sa.path}`, tokenUrl: `${google.url}/token` },
        },
        {
          id: 'vertex-openai',
          protocol: 'openai-chat',
          baseUrl: `${google.url}/v1/projects/test-project/locations/global/endpoints/openapi`,
          auth: { type: 'google-service-account', credentials: `file:${sa.path}`, tokenUrl: `${google.url}/token` },
        },
        {
          id: 'azure',
          protocol: 'openai-chat',
          baseUrl: `${entra.url}/openai/v1`,
          auth: {
            type: 'azure-entra',
            ...TENANT,
            clientSecret: 'env:TEST_ENTRA_SECRET',
            tokenUrl: `${entra.url}/${TENANT.tenantId}/oauth2/v2.0/token`,
          },
        },
      ],
      models: [
        model('cloud/bedrock-claude', 'bedrock', 'anthropic.claude-sonnet-4-5-20250929-v1:0'),
        model('cloud/bedrock-llama', 'bedrock-converse', 'meta.llama3-3-70b-instruct-v1:0'),
        model('cloud/vertex-claude', 'vertex', 'claude-sonnet-4-5@20250929'),
        model('cloud/vertex-gemini', 'vertex-openai', 'google/gemini-2.5-flash'),
        model('cloud/azure-gpt', 'azure', 'gpt-4.1-mini'),
      ],
    }
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog, {
      TEST_AWS_KEY_ID: 'AKIATOLLGATETEST',
      TEST_AWS_SECRET: AWS_KEYS.AKIATOLLGATETEST,
      TEST_ENTRA_SECRET: TENANT.clientSecret,
    })
    expect(gw.runtime.deps.catalog.authProblems()).toEqual([])
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    bedrock.stop()
    google.stop()
    entra.stop()
  })

  async function call(inbound: Inbound, slug: string, stream: boolean, tools: boolean) {
    const u = await gw.user(5)
    const res = await gw.request(PATH[inbound], {
      method: 'POST',
      headers: { 'x-api-key': u.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(requestBody(inbound, slug, stream, tools)),
    })
    const text = await res.text()
    expect(res.status).toBe(200)
    const seen = stream ? clientStreamView(inbound, text) : clientJsonView(inbound, JSON.parse(text))
    await gw.settled()
    const [log] = await gw.runtime.deps.db
      .select()
      .from(requestLogs)
      .where(eq(requestLogs.id, res.headers.get('x-request-id')!))
    const books = await gw.books(u.userId)
    expect(books.ledgerSum).toBe(books.balance)
    return { text, seen, log: log! }
  }

  /** Billed exactly the upstream's count, at the model's prices (nano-USD per 1M → micro-USD, rounded up). */
  function expectBilled(log: typeof requestLogs.$inferSelect, u: { input: number; output: number; cacheRead: number; cacheWrite: number }) {
    expect(log.usageSource).toBe('upstream')
    expect([log.inputTokens, log.outputTokens, log.cacheReadTokens, log.cacheWriteTokens]).toEqual([
      u.input,
      u.output,
      u.cacheRead,
      u.cacheWrite,
    ])
    const nano = BigInt(u.input) * 1_000n + BigInt(u.output) * 2_000n + BigInt(u.cacheRead) * 500n + BigInt(u.cacheWrite) * 1_250n
    expect(log.costMicros).toBe((nano + 999n) / 1_000n)
  }

  const ANTHROPIC_CASES = [
    { kind: 'text', json: 'json-text.json', sse: 'stream-text.sse', tools: false },
    { kind: 'tools', json: 'json-tool-use-two.json', sse: 'stream-tool-use-two.sse', tools: true },
    { kind: 'cache', json: 'json-cache-read.json', sse: 'stream-cache-read.sse', tools: false },
  ]
  const usageOfJson = (j: any) => ({
    input: j.usage.input_tokens,
    output: j.usage.output_tokens,
    cacheRead: j.usage.cache_read_input_tokens ?? 0,
    cacheWrite: j.usage.cache_creation_input_tokens ?? 0,
  })
  const usageOfEvents = (evs: any[]) => {
    const start = evs.find((e) => e.type === 'message_start').message.usage
    const delta = evs.findLast((e) => e.type === 'message_delta').usage
    return usageOfJson({ usage: { ...start, ...delta } })
  }

  for (const inbound of INBOUNDS)
    for (const stream of [false, true])
      for (const c of ANTHROPIC_CASES) {
        test(`${inbound} ← bedrock-anthropic (${stream ? 'stream' : 'json'}, ${c.kind}): signed, recorded Claude answer translated and billed`, async () => {
          const before = bedrock.seen.length
          let expected: View
          let usage: ReturnType<typeof usageOfJson>
          if (stream) {
            const evs = anthropicEventsOf(fixtureSse('anthropic-messages', c.sse))
            bedrock.script({ kind: 'bytes', chunks: bedrockChunks(evs), contentType: EVENT_STREAM })
            expected = upstreamStreamView('anthropic-messages', fixtureSse('anthropic-messages', c.sse))
            usage = usageOfEvents(evs)
          } else {
            const j = fixtureJson('anthropic-messages', c.json)
            bedrock.script({ kind: 'json', body: j })
            expected = upstreamJsonView('anthropic-messages', j)
            usage = usageOfJson(j)
          }
          const { seen, log, text } = await call(inbound, 'cloud/bedrock-claude', stream, c.tools)
          expect(seen).toEqual(expected)
          expectBilled(log, usage)
          const sent = bedrock.seen[before]!
          expect(sent.path).toBe(`/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/${stream ? 'invoke-with-response-stream' : 'invoke'}`)
          expect(sent.body.anthropic_version).toBe('bedrock-2023-05-31')
          expect(sent.body.model).toBeUndefined()
          expect(sent.body.stream).toBeUndefined()
          expect(bedrock.refused).toEqual([])
          expect(text).not.toContain('anthropic.claude')
        })

        test(`${inbound} ← vertex-anthropic (${stream ? 'stream' : 'json'}, ${c.kind}): Google token, recorded Claude answer translated and billed`, async () => {
          const before = google.seen.length
          const sse = fixtureSse('anthropic-messages', c.sse)
          const j = fixtureJson('anthropic-messages', c.json)
          google.script(
            stream
              ? { kind: 'bytes', chunks: [new TextEncoder().encode(sse)], contentType: 'text/event-stream' }
              : { kind: 'json', body: j },
          )
          const { seen, log } = await call(inbound, 'cloud/vertex-claude', stream, c.tools)
          expect(seen).toEqual(stream ? upstreamStreamView('anthropic-messages', sse) : upstreamJsonView('anthropic-messages', j))
          expectBilled(log, stream ? usageOfEvents(anthropicEventsOf(sse)) : usageOfJson(j))
          const sent = google.seen[before]!
          expect(sent.path).toBe(
            `/v1/projects/test-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:${stream ? 'streamRawPredict' : 'rawPredict'}`,
          )
          expect(sent.body.anthropic_version).toBe('vertex-2023-10-16')
          expect(sent.body.model).toBeUndefined()
          expect(sent.headers.authorization).toMatch(/^Bearer ya29\.fake-\d+$/)
          expect(google.refused).toEqual([])
        })
      }

  for (const inbound of INBOUNDS)
    for (const stream of [false, true])
      for (const [kind, answer] of [
        ['text', CONVERSE_TEXT],
        ['tools', CONVERSE_TOOLS],
      ] as const) {
        test(`${inbound} ← bedrock-converse (${stream ? 'stream' : 'json'}, ${kind}): translated and billed with cache reads and writes`, async () => {
          const before = bedrock.seen.length
          bedrock.script(
            stream
              ? { kind: 'bytes', chunks: converseFrames(answer.stream), contentType: EVENT_STREAM }
              : { kind: 'json', body: answer.json },
          )
          const { seen, log } = await call(inbound, 'cloud/bedrock-llama', stream, kind === 'tools')
          expect(seen).toEqual(answer.view)
          expectBilled(log, answer.usage)
          const sent = bedrock.seen[before]!
          expect(sent.path).toBe(`/model/meta.llama3-3-70b-instruct-v1%3A0/${stream ? 'converse-stream' : 'converse'}`)
          expect(sent.body.messages).toEqual([{ role: 'user', content: [{ text: 'What is the weather?' }] }])
          expect(sent.body.inferenceConfig.maxTokens).toBeGreaterThan(0)
          if (kind === 'tools')
            expect(sent.body.toolConfig.tools[0].toolSpec).toEqual({
              name: 'get_weather',
              inputSchema: { json: { type: 'object', properties: { location: { type: 'string' } } } },
            })
          expect(bedrock.refused).toEqual([])
        })
      }

  for (const [slug, cloud, path] of [
    ['cloud/vertex-gemini', () => google, '/v1/projects/test-project/locations/global/endpoints/openapi/chat/completions'],
    ['cloud/azure-gpt', () => entra, '/openai/v1/chat/completions'],
  ] as const)
    for (const stream of [false, true])
      test(`chat ← ${slug} (openai-chat with cloud auth, ${stream ? 'stream' : 'json'}): the token rides as a bearer, billed`, async () => {
        const c = cloud()
        const before = c.seen.length
        const sse = fixtureSse('openai-chat', 'stream-text-usage.sse')
        const j = fixtureJson('openai-chat', 'json-text.json')
        c.script(
          stream ? { kind: 'bytes', chunks: [new TextEncoder().encode(sse)], contentType: 'text/event-stream' } : { kind: 'json', body: j },
        )
        const { seen, log } = await call('chat', slug, stream, false)
        expect(seen.text).toBe((stream ? upstreamStreamView('openai-chat', sse) : upstreamJsonView('openai-chat', j)).text)
        expect(log.usageSource).toBe('upstream')
        const sent = c.seen[before]!
        expect(sent.path).toBe(path)
        expect(sent.headers.authorization).toMatch(/^Bearer .*fake-\d+$/)
        expect(sent.headers['api-key']).toBeUndefined()
        expect(c.refused).toEqual([])
      })
})
