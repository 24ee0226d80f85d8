// The chat pass-through on recorded streams, frame by frame: every upstream data frame is
// forwarded in order with only `model` rewritten, [DONE] is re-issued after one svc chunk, and a
// failure ends with exactly one error frame.
import { describe, expect, test } from 'bun:test'
import { teeTransform } from '../../../src/inference/stream-translate.ts'
import { chatTee, publicJson } from '../../../src/protocols/chat/passthrough.ts'
import { chatStreamDecoder } from '../../../src/providers/openai-chat/stream-decoder.ts'
import { pipeHarness } from '../../helpers/pipe.ts'

const chatPassthrough = (upstream: ReadableStream<Uint8Array>, o: { idleTimeoutMs?: number } = {}) =>
  pipeHarness(upstream.getReader(), teeTransform(chatStreamDecoder(), chatTee(SLUG)), { svc: SVC, ...o })
import { SseParser } from '../../../src/lib/sse/parse.ts'
import { fixtureSse } from '../../helpers/fixtures.ts'

const SLUG = 'acme/chat-1'
const SVC = '{"cost":0.00000100,"latencyMs":1,"gateway":"gw-a","upstreamRequestId":"x","usageSource":"upstream"}'

function upstreamOf(text: string, split = 37, opts: { failAfter?: number; neverEnd?: boolean } = {}): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  let at = 0
  return new ReadableStream({
    pull(c) {
      if (opts.failAfter !== undefined && at >= opts.failAfter) return c.error(new Error('socket reset'))
      if (at >= bytes.length) return opts.neverEnd ? new Promise(() => {}) : c.close()
      c.enqueue(bytes.slice(at, at + split))
      at += split
    },
  })
}

async function run(upstream: ReadableStream<Uint8Array>, idleTimeoutMs = 5_000) {
  const pipe = chatPassthrough(upstream, { idleTimeoutMs })
  const text = await new Response(pipe.body).text()
  return { text, frames: text.split('\n\n').filter(Boolean), outcome: pipe.outcome!, aborted: pipe.upstream.aborted ? 1 : 0 }
}

/** What a client may see of a chunk (docs/security.md "Chat pass-through"): OpenAI's members only, vendor additions dropped. */
const openAiShape = (o: Record<string, any>) => {
  const { prompt_filter_results: _p, provider: _v, ...top } = o
  return Array.isArray(top.choices)
    ? { ...top, choices: top.choices.map(({ native_finish_reason: _n, content_filter_results: _c, ...c }: any) => c) }
    : top
}

const dataFrames = (sse: string) => new SseParser().push(sse).map((e) => e.data)

describe('chat pass-through on recorded streams', () => {
  for (const file of [
    'stream-text-usage.sse',
    'stream-tool-calls-two.sse',
    'stream-tool-call-single.sse',
    'stream-refusal.sse',
    'stream-max-tokens-length.sse',
    'stream-forced-tool-call-finish-stop.sse',
    'stream-reasoning-content-deepseek.chunks.jsonl',
    'stream-azure-prompt-filter-first-chunk.chunks.jsonl',
    'stream-text-usage.chunks.jsonl',
  ]) {
    test(file, async () => {
      const sse = fixtureSse('openai-chat', file)
      const upstream = dataFrames(sse).filter((d) => d !== '[DONE]')
      const { frames, outcome } = await run(upstreamOf(sse))
      expect(frames).toHaveLength(upstream.length + 2)
      upstream.forEach((data, i) => {
        const parsed = JSON.parse(data)
        const got = frames[i]!
        expect(got.startsWith('data: ')).toBe(true)
        const gotJson = JSON.parse(got.slice(6))
        expect(gotJson).toEqual(openAiShape('model' in parsed ? { ...parsed, model: SLUG } : parsed))
        // Bytes are the upstream's own except the spliced model value.
        expect(got.slice(6)).toBe(publicJson(data, parsed, SLUG))
      })
      const svc = JSON.parse(frames.at(-2)!.slice(6))
      expect(svc).toMatchObject({ object: 'chat.completion.chunk', model: SLUG, choices: [], svc: JSON.parse(SVC) })
      expect(frames.at(-1)).toBe('data: [DONE]')
      expect(outcome.end).toBe('completed')
      const lastUsage = upstream
        .map((d) => JSON.parse(d).usage)
        .filter(Boolean)
        .at(-1)
      if (lastUsage) expect(outcome.usage?.outputTokens).toBe(lastUsage.completion_tokens)
      expect(outcome.deliveredChars).toBeGreaterThan(0)
    })
  }

  test('recorded mid-stream error chunk → one error frame, no [DONE], no upstream identity, usage kept', async () => {
    const { text, frames, outcome, aborted } = await run(upstreamOf(fixtureSse('openai-chat', 'stream-midstream-error-openrouter.sse')))
    expect(frames.filter((f) => f.startsWith('data: {"error"'))).toHaveLength(1)
    expect(JSON.parse(frames.at(-1)!.slice(6))).toEqual({
      error: { code: 'UPSTREAM_ERROR', message: 'The upstream model failed mid-stream.' },
    })
    expect(text).not.toContain('[DONE]')
    expect(text.toLowerCase()).not.toMatch(/openrouter|minimax/)
    expect(structuredClone(outcome)).toMatchObject({ end: 'upstream_failed', usage: { inputTokens: 43, outputTokens: 10 } })
    expect(aborted).toBe(1)
  })

  test('an upstream that ends without finish_reason or [DONE] fails with one error frame', async () => {
    const sse = fixtureSse('openai-chat', 'stream-text-usage.sse')
    const { frames, outcome } = await run(upstreamOf(sse.slice(0, sse.indexOf('data:', 900))))
    expect(frames.at(-1)).toStartWith('data: {"error"')
    expect(frames.filter((f) => f.includes('"error"'))).toHaveLength(1)
    expect(outcome.end).toBe('upstream_failed')
  })

  test('a reset connection mid-stream fails with one error frame', async () => {
    const { frames, outcome } = await run(upstreamOf(fixtureSse('openai-chat', 'stream-text-usage.sse'), 100, { failAfter: 600 }))
    expect(frames.at(-1)).toBe('data: {"error":{"code":"UPSTREAM_ERROR","message":"The upstream connection failed mid-stream."}}')
    expect(structuredClone(outcome)).toMatchObject({ end: 'upstream_failed', started: true })
  })

  test('an upstream that goes silent trips the idle timeout', async () => {
    let abort: () => void = () => {}
    const sse = fixtureSse('openai-chat', 'stream-text-usage.sse').slice(0, 500)
    const stalled = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(sse))
        abort = () => c.error(new Error('aborted'))
      },
    })
    const pipe = chatPassthrough(stalled, { idleTimeoutMs: 30 })
    pipe.upstream.addEventListener('abort', () => abort())
    const text = await new Response(pipe.body).text()
    expect(text.trimEnd().split('\n\n').at(-1)).toContain('UPSTREAM_ERROR')
    expect(pipe.outcome?.error?.code).toBe('UPSTREAM_TIMEOUT')
    expect(pipe.outcome?.cause).toMatchObject({ kind: 'upstream_failed', afterFirstByte: true })
  })

  test('a client that cancels aborts the upstream and reports what was delivered', async () => {
    const pipe = chatPassthrough(upstreamOf(fixtureSse('openai-chat', 'stream-text-usage.sse'), 400, { neverEnd: true }))
    const reader = pipe.body.getReader()
    await reader.read()
    await reader.read()
    await reader.cancel()
    expect(pipe.upstream.aborted).toBe(true)
    expect(pipe.outcome?.end).toBe('client_left')
    expect(pipe.outcome?.started).toBe(true)
    expect(pipe.outcome!.deliveredChars).toBeGreaterThan(0)
  })
})

describe('publicJson', () => {
  test('splices the model token and leaves every other byte', () => {
    const raw = '{"id":"x","model":"gpt-4o-2024-08-06","choices":[]}'
    expect(publicJson(raw, JSON.parse(raw), SLUG)).toBe('{"id":"x","model":"acme/chat-1","choices":[]}')
  })
  test('re-serialises when the member is spaced differently, and drops the provider member', () => {
    const spaced = '{"id": "x", "model": "m1"}'
    expect(JSON.parse(publicJson(spaced, JSON.parse(spaced), SLUG))).toEqual({ id: 'x', model: SLUG })
    const withProvider = '{"id":"x","provider":"Minimax","model":"m1"}'
    expect(publicJson(withProvider, JSON.parse(withProvider), SLUG)).toBe('{"id":"x","model":"acme/chat-1"}')
  })
  test('leaves a chunk without model untouched', () => {
    const raw = '{"id":"x","choices":[]}'
    expect(publicJson(raw, JSON.parse(raw), SLUG)).toBe(raw)
  })
  test('clean chunks keep their bytes; vendor members are dropped at the top and in choices', () => {
    const clean =
      '{"id":"c","object":"chat.completion.chunk","created":1,"model":"up","system_fingerprint":"fp","obfuscation":"ab","choices":[{"index":0,"delta":{"content":"x","reasoning":"r"},"logprobs":null,"finish_reason":null}]}'
    expect(publicJson(clean, JSON.parse(clean), 'acme/m')).toBe(clean.replace('"up"', '"acme/m"'))
    const vendor =
      '{"id":"c","model":"up","x_groq":{"id":"req_1"},"provider":"P","prompt_filter_results":[],"choices":[{"index":0,"delta":{},"native_finish_reason":"x","content_filter_results":{}}]}'
    expect(JSON.parse(publicJson(vendor, JSON.parse(vendor), 'acme/m'))).toEqual({
      id: 'c',
      model: 'acme/m',
      choices: [{ index: 0, delta: {} }],
    })
  })
})
