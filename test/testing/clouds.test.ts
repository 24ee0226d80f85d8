// The cloud wires on the fake upstream, as a user's suite would use them (docs/testing.md "Cloud
// wires on the fake"): cloudCatalog routes a model to each — Bedrock's InvokeModel and Converse
// (AWS event-stream frames), Vertex's rawPredict, Gemini on Vertex's OpenAI endpoint and an Azure
// deployment — with its real cloud auth, which runs offline against the fake. Each answers every
// inbound protocol, JSON and stream; the bill is the scripted usage × the price; each fails over
// on a scripted failure.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CLOUD_MODELS, cloudCatalog, type Reply, startTollgate, TOKEN_MODEL, type Tollgate } from 'tollgate/testing'
import { call, INBOUND } from '../helpers/protocol-calls.ts'

const CLOUDS = [
  { wire: 'bedrock-anthropic', ...CLOUD_MODELS.bedrockClaude },
  { wire: 'bedrock-converse', ...CLOUD_MODELS.bedrockConverse },
  { wire: 'vertex-anthropic', ...CLOUD_MODELS.vertexClaude },
  { wire: 'openai-chat', ...CLOUD_MODELS.vertexGemini },
  { wire: 'openai-chat', ...CLOUD_MODELS.azure },
]
const BACKUP = CLOUD_MODELS.backup.upstream

let tg: Tollgate
beforeAll(async () => {
  tg = await startTollgate({ catalog: cloudCatalog })
})
afterAll(() => tg.stop())

/** Every (cloud, inbound protocol, stream) with `reply` scripted on the cloud's route. */
async function eachCloud(reply: Reply, check: (v: Awaited<ReturnType<typeof call>>, cloud: (typeof CLOUDS)[number]) => void) {
  for (const c of CLOUDS)
    for (const p of INBOUND)
      for (const stream of [false, true]) {
        tg.upstream.reset()
        tg.upstream.on(c.upstream, reply)
        const v = await call(tg.anthropicBaseURL, tg.key, p, c.slug, stream)
        try {
          check(v, c)
          const calls = tg.upstream.requests.filter((r) => r.wire !== 'oauth-token')
          expect(calls.map((r) => [r.wire, r.model, r.stream])).toEqual([[c.wire, c.upstream, stream]])
        } catch (e) {
          throw new Error(`${c.slug} → ${p}${stream ? ' stream' : ''}: ${(e as Error).message}`)
        }
      }
}

describe('the token endpoint (first: the gateway has fetched no token yet)', () => {
  test('a scripted refusal fails over; then it grants Google’s JWT bearer and Entra’s client credentials grants', async () => {
    tg.upstream.once(TOKEN_MODEL, { error: { status: 401, message: 'refused, as scripted' } })
    const refused = await call(tg.anthropicBaseURL, tg.key, 'messages', CLOUD_MODELS.vertexClaude.slug, false)
    expect([refused.status, refused.text]).toEqual([200, 'You said: Hello'])
    expect(tg.upstream.requests.map((r) => [r.wire, r.model])).toEqual([
      ['oauth-token', TOKEN_MODEL],
      ['openai-chat', BACKUP],
    ])
    tg.upstream.reset()
    for (const c of [CLOUD_MODELS.vertexClaude, CLOUD_MODELS.azure])
      expect((await call(tg.anthropicBaseURL, tg.key, 'chat', c.slug, false)).status).toBe(200)
    const grants = tg.upstream.requests.filter((r) => r.wire === 'oauth-token')
    expect(grants.map((g) => [g.path, g.body.grant_type])).toEqual([
      ['/token', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
      ['/fake-tenant/oauth2/v2.0/token', 'client_credentials'],
    ])
    expect(grants[0]!.body.assertion.split('.')).toHaveLength(3)
    expect(grants[1]!.body.client_id).toBe('fake-client-id')
  })
})

describe('answers on every cloud wire, each inbound protocol, JSON and stream', () => {
  test('text, billed at the scripted usage × the price; balance = credit − Σ bills', async () => {
    const before = await tg.wallet.balance(tg.user.id)
    // $1 / $2 per 1M tokens: 1,000 in + 500 out = 2,000 µUSD a call.
    await eachCloud({ text: 'Scripted cloud answer.', usage: { input: 1_000, output: 500 } }, (v) => {
      expect([v.status, v.text, v.streamError]).toEqual([200, 'Scripted cloud answer.', false])
    })
    const calls = CLOUDS.length * INBOUND.length * 2
    const log = await tg.admin.requestLog(tg.user.id, { limit: calls })
    expect(log.map((l) => [l.inputTokens, l.outputTokens, l.usageSource, Math.round(l.cost * 1e6)])).toEqual(
      Array(calls).fill([1_000, 500, 'upstream', 2_000]),
    )
    expect(new Set(log.map((l) => l.model))).toEqual(new Set(CLOUDS.map((c) => c.slug)))
    const after = await tg.wallet.balance(tg.user.id)
    expect([Math.round((before.balance - after.balance) * 1e6), after.reserved]).toEqual([calls * 2_000, 0])
  })

  test('tool calls', () =>
    eachCloud({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }, (v) => {
      expect(v.status).toBe(200)
      expect(v.tools.map((t) => [t.name, JSON.parse(t.arguments)])).toEqual([['get_weather', { city: 'Oslo' }]])
    }))

  test('reasoning before the answer', () =>
    eachCloud({ reasoning: 'Thinking it over.', text: 'Done.' }, (v) => {
      expect([v.status, v.reasoning, v.text]).toEqual([200, 'Thinking it over.', 'Done.'])
    }))

  test('latency, time to first token and frame pace delay the answer, not change it', async () => {
    for (const c of CLOUDS)
      for (const stream of [false, true]) {
        tg.upstream.reset()
        tg.upstream.on(c.upstream, { latencyMs: 5, firstTokenMs: 5, frameDelayMs: 1, text: 'Slow cloud answer.' })
        const v = await call(tg.anthropicBaseURL, tg.key, 'responses', c.slug, stream)
        expect([c.slug, stream, v.status, v.text]).toEqual([c.slug, stream, 200, 'Slow cloud answer.'])
      }
  })

  test('no usage: the gateway bills its estimate', async () => {
    await eachCloud({ usage: null, text: 'Unmetered.' }, (v) => expect(v.status).toBe(200))
    const log = await tg.admin.requestLog(tg.user.id, { limit: CLOUDS.length * 6 })
    expect(new Set(log.map((l) => l.usageSource))).toEqual(new Set(['none']))
    expect(log.every((l) => l.inputTokens > 0 && l.cost > 0)).toBe(true)
  })
})

describe('what the fake recorded: the cloud auth as sent', () => {
  test('Bedrock calls carry a SigV4 signature; Vertex and Azure a token from the fake’s endpoint; Azure its api-version', async () => {
    tg.upstream.reset()
    for (const c of CLOUDS) expect((await call(tg.anthropicBaseURL, tg.key, 'chat', c.slug, false)).status).toBe(200)
    const byModel = new Map(tg.upstream.requests.map((r) => [r.model, r]))
    for (const m of [CLOUD_MODELS.bedrockClaude, CLOUD_MODELS.bedrockConverse]) {
      const r = byModel.get(m.upstream)!
      expect(r.headers.authorization).toStartWith('AWS4-HMAC-SHA256 Credential=AKIAFAKEKEY000000000/')
      expect(r.headers.authorization).toContain('/us-east-1/bedrock/aws4_request')
      expect(r.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/)
    }
    expect(byModel.get(CLOUD_MODELS.bedrockClaude.upstream)!.path).toBe('/bedrock/model/anthropic.claude-fake-v1%3A0/invoke')
    expect(byModel.get(CLOUD_MODELS.bedrockClaude.upstream)!.body.anthropic_version).toBe('bedrock-2023-05-31')
    const vertex = byModel.get(CLOUD_MODELS.vertexClaude.upstream)!
    expect(vertex.path).toEndWith('/publishers/anthropic/models/claude-fake@20250101:rawPredict')
    for (const m of [CLOUD_MODELS.vertexClaude, CLOUD_MODELS.vertexGemini, CLOUD_MODELS.azure])
      expect(byModel.get(m.upstream)!.headers.authorization).toMatch(/^Bearer fake-token-/)
    const azure = byModel.get(CLOUD_MODELS.azure.upstream)!
    expect([azure.path, azure.query, azure.body.model]).toEqual([
      '/azure/openai/deployments/fake-deployment/chat/completions',
      { 'api-version': '2025-04-01-preview' },
      'gpt-fake',
    ])
  })
})

describe('failures on every cloud wire', () => {
  const failovers: [string, Reply, boolean[]][] = [
    ['429 with Retry-After (Bedrock: ThrottlingException)', { error: { status: 429, retryAfter: 1 } }, [false, true]],
    ['500', { error: { status: 500 } }, [false, true]],
    ['a connection cut before any byte', { cutAfterBytes: 0 }, [false, true]],
  ]
  for (const [name, reply, streams] of failovers)
    test(`${name}: the next route answers`, async () => {
      for (const c of CLOUDS)
        for (const stream of streams) {
          tg.upstream.reset()
          tg.upstream.on(c.upstream, { ...reply, text: 'never seen' }).on(BACKUP, { text: 'from the backup' })
          const v = await call(tg.anthropicBaseURL, tg.key, 'chat', c.slug, stream)
          const calls = tg.upstream.requests.filter((r) => r.wire !== 'oauth-token').map((r) => r.model)
          expect([c.slug, stream, v.status, v.text, calls]).toEqual([c.slug, stream, 200, 'from the backup', [c.upstream, BACKUP]])
        }
    })

  test('an error event before any text: Bedrock’s throttlingException frame fails over; an SSE wire’s error event reaches the client', async () => {
    for (const c of CLOUDS) {
      tg.upstream.reset()
      tg.upstream.on(c.upstream, { errorAfterChars: 0, errorEventStatus: 429 }).on(BACKUP, { text: 'from the backup' })
      const v = await call(tg.anthropicBaseURL, tg.key, 'chat', c.slug, true)
      const calls = tg.upstream.requests.filter((r) => r.wire !== 'oauth-token').map((r) => r.model)
      // Only a stream exception with a status class is a failure before the first byte (docs/failover.md).
      const bedrock = c.wire.startsWith('bedrock-')
      expect([c.slug, v.status, v.text, v.streamError, calls]).toEqual(
        bedrock ? [c.slug, 200, 'from the backup', false, [c.upstream, BACKUP]] : [c.slug, 200, '', true, [c.upstream]],
      )
    }
  })

  test('an error event after N characters ends the stream after them, in each protocol', async () => {
    for (const c of CLOUDS)
      for (const p of INBOUND) {
        tg.upstream.reset()
        tg.upstream.on(c.upstream, { text: 'one two three four five', errorAfterChars: 8 })
        const v = await call(tg.anthropicBaseURL, tg.key, p, c.slug, true)
        expect([c.slug, p, v.status, v.text, v.streamError]).toEqual([c.slug, p, 200, 'one two ', true])
      }
  })

  test('a cut mid-stream (inside an event-stream frame on Bedrock): what was sent arrives, then an error event', async () => {
    for (const c of CLOUDS) {
      tg.upstream.reset()
      tg.upstream.on(c.upstream, { text: 'word '.repeat(400), cutAfterBytes: 3_001 })
      const v = await call(tg.anthropicBaseURL, tg.key, 'chat', c.slug, true)
      expect([c.slug, v.status, v.streamError]).toEqual([c.slug, 200, true])
      expect(v.text.length).toBeGreaterThan(0)
      expect(v.text.length).toBeLessThan(2_000)
    }
  })

  test('Bedrock’s HTTP error: its exception named in x-amzn-errortype, Retry-After as scripted', async () => {
    tg.upstream.reset()
    tg.upstream.on('m', { error: { status: 429, retryAfter: 2 } })
    const res = await fetch(`${tg.upstream.url}/bedrock/model/m/converse-stream`, { method: 'POST', body: '{"messages":[]}' })
    expect([res.status, res.headers.get('x-amzn-errortype'), res.headers.get('retry-after')]).toEqual([
      429,
      'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/',
      '2',
    ])
    expect(await res.json()).toEqual({ message: 'Rate limit reached (fake upstream).' })
  })
})
