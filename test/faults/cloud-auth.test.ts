// The clouds' auth and streams when something goes wrong (docs/providers.md "Cloud auth",
// docs/failover.md "Failure → behaviour"): one token grant for many concurrent calls, a refresh
// once the token expired; a bad signature, a refused grant or an unreadable key file is that
// route's upstream failure — the next route serves and the client never sees the cloud's words;
// a throttled Bedrock stream fails over before its first byte; a cut or corrupt event stream is
// billed for what was delivered, the books exact.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { estimateDeliveredTokens } from '../../src/billing/estimate.ts'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { requestLogs } from '../../src/db/schema/index.ts'
import {
  anthropicEventsOf,
  bedrockChunks,
  exceptionFrame,
  type FakeCloud,
  startFakeBedrock,
  startFakeGoogle,
  serviceAccountFile,
  type TokenCloud,
} from '../helpers/fake-clouds.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'
import { startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectNoUpstreamIdentity, sseFrames } from '../helpers/chat.ts'
import { clientStreamView, upstreamStreamView } from '../translation/fixture-views.ts'

const EVENT_STREAM = 'application/vnd.amazon.eventstream'
const KEYS = { AKIATOLLGATETEST: 'bedrock-test-secret-key' }
const CLOUD_WORDS = ['signature', 'cloud-internal', 'google-internal', 'invalid_grant', 'throttl', 'amazonaws', 'ya29', 'anthropic.claude']

const chatModel = (id: string, routes: { gateway: string; model: string }[]): CatalogFile['models'][number] => ({
  id,
  name: id,
  provider: 'cloud',
  contextWindow: 200_000,
  capabilities: ['text'],
  pricing: { input: 1, output: 2 },
  routes,
})

describe('cloud auth and streams under failure', () => {
  let bedrock: FakeCloud
  let google: TokenCloud
  let refusing: TokenCloud
  let shortLived: TokenCloud
  let gw: TestGateway
  beforeAll(async () => {
    bedrock = startFakeBedrock('us-east-1', KEYS)
    const sa = await serviceAccountFile('https://oauth2.googleapis.com/token')
    google = startFakeGoogle(sa.publicKey, sa.email)
    refusing = startFakeGoogle(sa.publicKey, sa.email)
    refusing.refuse = true
    shortLived = startFakeGoogle(sa.publicKey, sa.email)
    shortLived.lifetime = 1
    const sigv4 = (secret: string) => ({
      type: 'aws-sigv4' as const,
      region: 'us-east-1',
      accessKeyId: 'AKIATOLLGATETEST',
      secretAccessKey: secret,
    })
    const stream = { firstTokenMs: 5_000 }
    const catalog: CatalogFile = {
      gateways: [
        {
          id: 'bedrock',
          protocol: 'bedrock-anthropic',
          baseUrl: bedrock.url,
          auth: sigv4(KEYS.AKIATOLLGATETEST),
          timeoutMs: 10_000,
          policy: stream,
        },
        { id: 'bedrock-badkey', protocol: 'bedrock-anthropic', baseUrl: bedrock.url, auth: sigv4('not-the-secret') },
        {
          id: 'vertex',
          protocol: 'vertex-anthropic',
          baseUrl: `${google.url}/v1/projects/p/locations/us-east5`,
          auth: { type: 'google-service-account', credentials: `file:${sa.path}`, tokenUrl: `${google.url}/token` },
        },
        {
          id: 'vertex-refused',
          protocol: 'vertex-anthropic',
          baseUrl: `${refusing.url}/v1/projects/p/locations/us-east5`,
          auth: { type: 'google-service-account', credentials: `file:${sa.path}`, tokenUrl: `${refusing.url}/token` },
        },
        {
          id: 'vertex-short',
          protocol: 'vertex-anthropic',
          baseUrl: `${shortLived.url}/v1/projects/p/locations/us-east5`,
          auth: { type: 'google-service-account', credentials: `file:${sa.path}`, tokenUrl: `${shortLived.url}/token` },
        },
        {
          id: 'vertex-nokey',
          protocol: 'vertex-anthropic',
          baseUrl: `${google.url}/v1/projects/p/locations/us-east5`,
          auth: { type: 'google-service-account', credentials: 'file:/nonexistent/tollgate-sa.json', tokenUrl: `${google.url}/token` },
        },
      ],
      models: [
        chatModel('t/vertex', [{ gateway: 'vertex', model: 'claude-x' }]),
        chatModel('t/vertex-short', [{ gateway: 'vertex-short', model: 'claude-x' }]),
        chatModel('t/bedrock', [{ gateway: 'bedrock', model: 'anthropic.claude-x' }]),
        chatModel('t/badkey-then-bedrock', [
          { gateway: 'bedrock-badkey', model: 'anthropic.claude-x' },
          { gateway: 'bedrock', model: 'anthropic.claude-x' },
        ]),
        chatModel('t/badkey-only', [{ gateway: 'bedrock-badkey', model: 'anthropic.claude-x' }]),
        chatModel('t/refused-then-bedrock', [
          { gateway: 'vertex-refused', model: 'claude-x' },
          { gateway: 'bedrock', model: 'anthropic.claude-x' },
        ]),
        chatModel('t/nokey-then-bedrock', [
          { gateway: 'vertex-nokey', model: 'claude-x' },
          { gateway: 'bedrock', model: 'anthropic.claude-x' },
        ]),
        chatModel('t/bedrock-then-vertex', [
          { gateway: 'bedrock', model: 'anthropic.claude-x' },
          { gateway: 'vertex', model: 'claude-x' },
        ]),
      ],
    }
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    bedrock.stop()
    google.stop()
    refusing.stop()
    shortLived.stop()
  })

  const chat = async (key: string, model: string, stream = false) => {
    const res = await gw.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Say hello' }] }),
    })
    return { res, text: await res.text() }
  }
  const logOf = async (res: Response) =>
    (
      await gw.runtime.deps.db
        .select()
        .from(requestLogs)
        .where(eq(requestLogs.id, res.headers.get('x-request-id')!))
    )[0]!
  const noCloudWords = (text: string, headers: Headers) => {
    for (const w of CLOUD_WORDS) expect(text.toLowerCase()).not.toContain(w)
    expectNoUpstreamIdentity(text, headers, [new URL(bedrock.url).host, new URL(google.url).host])
  }

  test('the unreadable key file is named in one line at load; its route fails over', async () => {
    expect(gw.runtime.deps.catalog.authProblems()).toEqual([
      'gateway vertex-nokey: auth.credentials: cannot read /nonexistent/tollgate-sa.json (ENOENT)',
    ])
    const u = await gw.user(5)
    bedrock.script({ kind: 'json', body: fixtureJson('anthropic-messages', 'json-text.json') })
    const { res, text } = await chat(u.key, 't/nokey-then-bedrock')
    expect(res.status).toBe(200)
    noCloudWords(text, res.headers)
  })

  test('one token grant serves 25 concurrent calls; all answered with it', async () => {
    const u = await gw.user(5, { rpm: 1_000 })
    const grants = google.grants
    for (let i = 0; i < 25; i++) google.script({ kind: 'json', body: fixtureJson('anthropic-messages', 'json-text.json') })
    const before = google.seen.length
    const all = await Promise.all(Array.from({ length: 25 }, () => chat(u.key, 't/vertex')))
    expect(all.map((r) => r.res.status)).toEqual(Array(25).fill(200))
    expect(google.grants - grants).toBe(1)
    const tokens = new Set(google.seen.slice(before).map((s) => s.headers.authorization))
    expect(tokens.size).toBe(1)
    await gw.settled()
    const books = await gw.books(u.userId)
    expect(books.balance).toBe(books.ledgerSum)
  })

  test('a token past its life is fetched again for the next call (the fake refuses expired tokens)', async () => {
    const u = await gw.user(5)
    const grants = shortLived.grants
    shortLived.script(
      { kind: 'json', body: fixtureJson('anthropic-messages', 'json-text.json') },
      { kind: 'json', body: fixtureJson('anthropic-messages', 'json-text.json') },
    )
    expect((await chat(u.key, 't/vertex-short')).res.status).toBe(200)
    expect(shortLived.grants - grants).toBe(1)
    // The grant said one second: wait it out (real time, as the cloud counts it).
    await Bun.sleep(1_100)
    expect((await chat(u.key, 't/vertex-short')).res.status).toBe(200)
    expect(shortLived.grants - grants).toBe(2)
    expect(shortLived.refused).toEqual([])
    const [a, b] = shortLived.seen.slice(-2).map((x) => x.headers.authorization)
    expect(a).not.toBe(b)
  })

  test('a bad signature: Bedrock refuses, the next route answers; alone, the client gets a 502 without the cloud’s words', async () => {
    const u = await gw.user(5)
    const refusedBefore = bedrock.refused.length
    bedrock.script({ kind: 'json', body: fixtureJson('anthropic-messages', 'json-text.json') })
    const ok = await chat(u.key, 't/badkey-then-bedrock')
    expect(ok.res.status).toBe(200)
    expect(bedrock.refused.slice(refusedBefore)).toEqual(['signature mismatch'])
    noCloudWords(ok.text, ok.res.headers)

    const alone = await chat(u.key, 't/badkey-only')
    expect(alone.res.status).toBe(502)
    expect(JSON.parse(alone.text).error.code).toBe('UPSTREAM_ERROR')
    noCloudWords(alone.text, alone.res.headers)
    await gw.settled()
    expect((await logOf(alone.res)).costMicros).toBe(0n)
    const books = await gw.books(u.userId)
    expect(books.balance).toBe(books.ledgerSum)
  })

  test('a refused grant: no call reaches Vertex, the next route answers', async () => {
    const u = await gw.user(5)
    bedrock.script({ kind: 'json', body: fixtureJson('anthropic-messages', 'json-text.json') })
    const { res, text } = await chat(u.key, 't/refused-then-bedrock')
    expect(res.status).toBe(200)
    expect(refusing.seen).toHaveLength(0)
    expect(refusing.grants).toBe(0)
    noCloudWords(text, res.headers)
  })

  test('a throttlingException as the stream’s first frame fails over before the first byte', async () => {
    const u = await gw.user(5)
    bedrock.script({
      kind: 'bytes',
      chunks: [exceptionFrame('throttlingException', 'Too many requests, please wait (throttled-internal).')],
      contentType: EVENT_STREAM,
    })
    google.script({
      kind: 'bytes',
      chunks: [new TextEncoder().encode(fixtureSse('anthropic-messages', 'stream-text.sse'))],
      contentType: 'text/event-stream',
    })
    const { res, text } = await chat(u.key, 't/bedrock-then-vertex', true)
    expect(res.status).toBe(200)
    expect(clientStreamView('chat', text).text).toBe(
      upstreamStreamView('anthropic-messages', fixtureSse('anthropic-messages', 'stream-text.sse')).text,
    )
    noCloudWords(text, res.headers)
  })

  for (const [name, tail] of [
    ['the connection is cut', { cut: true, extra: [] as Uint8Array[] }],
    ['a frame fails its checksum', { cut: false, extra: [corrupt()] }],
    [
      'a modelStreamErrorException arrives',
      { cut: false, extra: [exceptionFrame('modelStreamErrorException', 'Model failed (internal).')] },
    ],
  ] as const)
    test(`a Bedrock stream after its first text, when ${name}: one error frame, billed for what was delivered`, async () => {
      const u = await gw.user(5)
      const evs = anthropicEventsOf(fixtureSse('anthropic-messages', 'stream-text.sse')) as any[]
      const upToText = evs.slice(0, evs.findIndex((e) => e.type === 'content_block_delta') + 2)
      bedrock.script({ kind: 'bytes', chunks: [...bedrockChunks(upToText), ...tail.extra], contentType: EVENT_STREAM, cut: tail.cut })
      const { res, text } = await chat(u.key, 't/bedrock', true)
      expect(res.status).toBe(200)
      const frames = sseFrames(text)
      expect(frames.filter((f) => f.startsWith('data: {"error"'))).toHaveLength(1)
      expect(text).not.toContain('[DONE]')
      noCloudWords(text, res.headers)
      const delivered = upToText
        .filter((e) => e.type === 'content_block_delta')
        .map((e) => e.delta.text)
        .join('')
      expect(delivered.length).toBeGreaterThan(0)
      await gw.settled()
      const log = await logOf(res)
      expect(log.usageSource).toBe('estimate')
      expect(log.inputTokens).toBe(evs[0].message.usage.input_tokens)
      expect(log.outputTokens).toBe(estimateDeliveredTokens(delivered.length))
      expect(log.costMicros).toBeGreaterThan(0n)
      const books = await gw.books(u.userId)
      expect(books.balance).toBe(books.ledgerSum)
    })
})

/** A valid chunk frame with one byte of its payload flipped: its message CRC no longer holds. */
function corrupt(): Uint8Array {
  const frame = bedrockChunks([{ type: 'ping' }])[0]!.slice()
  frame[frame.length - 10]! ^= 0xff
  return frame
}
