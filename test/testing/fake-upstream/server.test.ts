// Each scripted behaviour of the fake upstream, on each upstream wire, seen through each inbound
// protocol, JSON and stream — written as a user's suite would be, against `tollgate/testing`.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { defaultCatalog, type Reply, startTollgate, type Tollgate } from 'tollgate/testing'
import { call, INBOUND } from '../../helpers/protocol-calls.ts'

/** The default catalog's models, one per upstream wire, and the upstream model each asks for. */
const UPSTREAMS = [
  { slug: 'test/chat', upstream: 'chat' },
  { slug: 'test/claude', upstream: 'claude' },
  { slug: 'test/responses', upstream: 'responses' },
]

let tg: Tollgate
beforeAll(async () => {
  tg = await startTollgate()
})
afterAll(() => tg.stop())

/** Every (upstream wire, inbound protocol, stream) with the reply scripted on the model's every route. */
async function eachPair(reply: Reply, check: (v: Awaited<ReturnType<typeof call>>, stream: boolean) => void, streams = [false, true]) {
  for (const u of UPSTREAMS)
    for (const p of INBOUND)
      for (const stream of streams) {
        tg.upstream.reset()
        tg.upstream.on(u.upstream, reply).on('chat-backup', reply)
        const v = await call(tg.anthropicBaseURL, tg.key, p, u.slug, stream)
        try {
          check(v, stream)
        } catch (e) {
          throw new Error(`${u.upstream} → ${p}${stream ? ' stream' : ''}: ${(e as Error).message}`)
        }
        expect(tg.upstream.requests.length).toBeGreaterThan(0)
        expect(tg.upstream.requests[0]!.stream).toBe(stream)
      }
}

describe('answers', () => {
  test('the echo by default', () =>
    eachPair({}, (v) => {
      expect(v.status).toBe(200)
      expect(v.text).toBe('You said: Hello')
    }))

  test('scripted text', () =>
    eachPair({ text: 'Scripted answer, word by word.' }, (v) => {
      expect(v.status).toBe(200)
      expect(v.text).toBe('Scripted answer, word by word.')
    }))

  test('tool calls', () =>
    eachPair({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }, (v) => {
      expect(v.status).toBe(200)
      expect(v.tools.map((t) => [t.name, JSON.parse(t.arguments)])).toEqual([['get_weather', { city: 'Oslo' }]])
    }))

  test('reasoning before the answer', () =>
    eachPair({ reasoning: 'Thinking it over.', text: 'Done.' }, (v) => {
      expect(v.status).toBe(200)
      expect([v.reasoning, v.text]).toEqual(['Thinking it over.', 'Done.'])
    }))

  test('latency and time to first token delay the answer, not change it', async () => {
    await eachPair({ latencyMs: 30, firstTokenMs: 30, frameDelayMs: 5, text: 'Slow answer.' }, (v) => {
      expect(v.status).toBe(200)
      expect(v.text).toBe('Slow answer.')
    })
  })
})

describe('usage', () => {
  test('scripted usage is what the call is billed on; none leaves the gateway its estimate', async () => {
    await eachPair({ usage: { input: 100, output: 50 } }, (v) => expect(v.status).toBe(200))
    const scripted = await tg.admin.requestLog(tg.user.id, { limit: 18 })
    expect(scripted.map((l) => [l.inputTokens, l.outputTokens, l.usageSource])).toEqual(Array(18).fill([100, 50, 'upstream']))
    await eachPair({ usage: null }, (v) => expect(v.status).toBe(200))
    const none = await tg.admin.requestLog(tg.user.id, { limit: 18 })
    expect(new Set(none.map((l) => l.usageSource))).toEqual(new Set(['none']))
    expect(none.every((l) => l.inputTokens > 0 && l.cost > 0)).toBe(true)
  })
})

describe('failures', () => {
  for (const [name, reply] of [
    ['429 with Retry-After (within the policy’s cap: no cooling)', { error: { status: 429, retryAfter: 2 } }],
    ['500', { error: { status: 500 } }],
    ['529 overloaded', { error: { status: 529 } }],
    ['a connection cut before any byte', { cutAfterBytes: 0 }],
  ] as [string, Reply][])
    test(`${name}: every route failed, 502 in the protocol's envelope`, () =>
      eachPair(reply, (v) => {
        expect(v.status).toBe(502)
        expect(v.raw).toContain('Every upstream gateway for this model failed')
      }))

  test('a hang: the gateway times out and fails over (gateways with a 1 s timeout)', async () => {
    const short = await startTollgate({
      catalog: (url) => {
        const c = defaultCatalog(url)
        return { ...c, gateways: c.gateways.map((g) => ({ ...g, timeoutMs: 1_000 })) }
      },
    })
    try {
      short.upstream.on('chat', { hang: true }).on('chat-backup', { text: 'from the backup' })
      for (const p of INBOUND)
        for (const stream of [false, true]) {
          const v = await call(short.anthropicBaseURL, short.key, p, 'test/chat', stream)
          expect([p, stream, v.status, v.text]).toEqual([p, stream, 200, 'from the backup'])
        }
      expect(short.upstream.requests.map((r) => r.model)).toEqual(Array(6).fill(['chat', 'chat-backup']).flat())
    } finally {
      await short.stop()
    }
  })

  test('the fake sends the status, Retry-After and its wire’s envelope', async () => {
    tg.upstream.reset()
    tg.upstream.on('x', { error: { status: 529, retryAfter: 3 } })
    const res = await fetch(`${tg.upstream.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'x', messages: [] }) })
    expect([res.status, res.headers.get('retry-after'), res.headers.get('retry-after-ms')]).toEqual([529, '3', '3000'])
    expect(((await res.json()) as any).error.type).toBe('overloaded_error')
  })

  test('an error event after N characters ends the stream after them', () =>
    eachPair(
      { text: 'one two three four five', errorAfterChars: 8 },
      (v) => {
        expect(v.status).toBe(200)
        expect([v.text, v.streamError]).toEqual(['one two ', true])
      },
      [true],
    ))

  test('a cut mid-stream: what was sent arrives, then the protocol’s error event', () =>
    eachPair(
      { text: 'word '.repeat(400), cutAfterBytes: 3_000 },
      (v) => {
        expect(v.status).toBe(200)
        expect(v.text.length).toBeGreaterThan(0)
        expect(v.text.length).toBeLessThan(2_000)
        expect(v.streamError).toBe(true)
      },
      [true],
    ))
})

describe('scripts and records', () => {
  test('once-replies come first, per model, then the standing reply', async () => {
    tg.upstream.reset()
    tg.upstream.on('chat', { text: 'standing' }).once('chat', { text: 'first' }, { text: 'second' })
    const texts = []
    for (let i = 0; i < 3; i++) texts.push((await call(tg.anthropicBaseURL, tg.key, 'chat', 'test/chat', false)).text)
    expect(texts).toEqual(['first', 'second', 'standing'])
  })

  test('a function of the request; every request recorded with its headers', async () => {
    tg.upstream.reset()
    tg.upstream.on('claude', (req) => ({ text: `seen ${req.body.messages.length} message(s)` }))
    const v = await call(tg.anthropicBaseURL, tg.key, 'messages', 'test/claude', false, 'Hi')
    expect(v.text).toBe('seen 1 message(s)')
    const [req] = tg.upstream.requests
    expect(req).toMatchObject({ wire: 'anthropic-messages', method: 'POST', path: '/fake-anthropic/v1/messages', model: 'claude' })
    expect(req!.headers['content-type']).toContain('application/json')
    expect(req!.headers['anthropic-version']).toBeDefined()
  })

  test('embeddings: one vector per input, floats or base64, with usage', async () => {
    tg.upstream.reset()
    tg.upstream.on('embed', { usage: { input: 7, output: 0 }, dimensions: 4 })
    const post = (extra: object) =>
      fetch(`${tg.baseURL}/embeddings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tg.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'test/embed', input: ['a', 'b'], ...extra }),
      }).then((r) => r.json() as Promise<any>)
    const floats = await post({})
    expect(floats.data.map((d: any) => d.embedding.length)).toEqual([4, 4])
    expect(floats.usage.prompt_tokens).toBe(7)
    const b64 = await post({ encoding_format: 'base64' })
    expect(new Float32Array(Buffer.from(b64.data[1].embedding, 'base64').buffer.slice(0)).length).toBe(4)
  })
})
