// The stream pipe (src/inference/stream.ts) on each way a stream ends: it reports to the call's
// lifecycle, ends in one place for whichever end stands, writes exactly one terminal (closing
// frames or one error frame, or nothing to a client that left), and hands settlement the end and
// what was delivered.
import { describe, expect, test } from 'bun:test'
import { teeTransform } from '../../src/inference/stream-translate.ts'
import { chatTee } from '../../src/protocols/chat/passthrough.ts'
import { chatStreamDecoder } from '../../src/providers/openai-chat/stream-decoder.ts'
import { pipeHarness } from '../helpers/pipe.ts'

const SVC = '{"cost":0.000001}'
const enc = new TextEncoder()
const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'up', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`
const FINISH =
  'data: {"id":"c1","object":"chat.completion.chunk","model":"up","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n' +
  'data: {"id":"c1","object":"chat.completion.chunk","model":"up","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3}}\n\ndata: [DONE]\n\n'

/** An upstream body the test feeds by hand. */
function upstream() {
  let ctl!: ReadableStreamDefaultController<Uint8Array>
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) })
  return {
    reader: body.getReader(),
    send: (text: string) => ctl.enqueue(enc.encode(text)),
    end: () => ctl.close(),
    fail: () => ctl.error(new Error('socket reset')),
  }
}

const pipe = (o: { idleTimeoutMs?: number; clientIdleMs?: number } = {}) => {
  const up = upstream()
  // Object.assign keeps the harness's `outcome` getter live (a spread would read it once).
  return Object.assign(pipeHarness(up.reader, teeTransform(chatStreamDecoder(), chatTee('acme/m')), { svc: SVC, ...o }), { up })
}

async function readText(r: ReadableStreamDefaultReader<Uint8Array>, until: (t: string) => boolean): Promise<string> {
  let text = ''
  const dec = new TextDecoder()
  while (!until(text)) {
    const { value, done } = await r.read()
    if (done) break
    text += dec.decode(value)
  }
  return text
}

describe('stream pipe ends', () => {
  test('completed: closing frames with svc, the final usage, the upstream left alone', async () => {
    const p = pipe()
    p.up.send(chunk('hello'))
    p.up.send(FINISH)
    p.up.end()
    const text = await new Response(p.body).text()
    expect(text).toContain('"svc":{"cost":0.000001}')
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true)
    expect(p.outcome).toMatchObject({ end: 'completed', started: true, deliveredChars: 5 })
    expect(p.outcome?.reported).toEqual({ usage: expect.objectContaining({ inputTokens: 7, outputTokens: 3 }), final: true })
    expect(p.upstream.aborted).toBe(false)
  })

  test('upstream cut after text: one error frame, upstream_failed after the first byte, text counted', async () => {
    const p = pipe()
    p.up.send(chunk('x'.repeat(80)))
    const reader = p.body.getReader()
    await readText(reader, (t) => t.includes('xxxx'))
    p.up.fail()
    const rest = await readText(reader, () => false)
    expect(rest.match(/"error"/g)).toHaveLength(1)
    expect(rest).not.toContain('[DONE]')
    expect(p.outcome?.cause).toMatchObject({ kind: 'upstream_failed', afterFirstByte: true })
    expect(p.outcome?.deliveredChars).toBe(80)
    expect(p.outcome?.error?.extra.upstream).toEqual({ kind: 'body' })
  })

  test('upstream idle past its limit: UPSTREAM_TIMEOUT on the gateway, the attempt aborted', async () => {
    const p = pipe({ idleTimeoutMs: 30 })
    p.up.send(chunk('hi'))
    const text = await new Response(p.body).text()
    expect(text).toContain('"error"')
    expect(p.outcome?.error?.code).toBe('UPSTREAM_TIMEOUT')
    expect(p.outcome?.error?.extra.upstream).toEqual({ kind: 'timeout' })
    expect(p.upstream.aborted).toBe(true)
  })

  test('client cancels: client_left, nothing more written, the attempt aborted with that reason', async () => {
    const p = pipe()
    p.up.send(chunk('abcd'))
    const reader = p.body.getReader()
    await readText(reader, (t) => t.includes('abcd'))
    await reader.cancel()
    expect(p.outcome).toMatchObject({ end: 'client_left', started: true, deliveredChars: 4 })
    expect(p.upstream.aborted).toBe(true)
    expect((p.upstream.reason as { end: { kind: string } }).end.kind).toBe('client_left')
  })

  test("the client's signal mid-stream ends it the same way (whoever sees the client go first)", async () => {
    const p = pipe()
    p.up.send(chunk('abcd'))
    const reader = p.body.getReader()
    await readText(reader, (t) => t.includes('abcd'))
    p.client.abort()
    expect(p.outcome?.end).toBe('client_left')
    expect(p.upstream.aborted).toBe(true)
  })

  test('drain mid-stream: one SHUTTING_DOWN error frame, then the end', async () => {
    const p = pipe()
    p.up.send(chunk('abcd'))
    const reader = p.body.getReader()
    const first = await readText(reader, (t) => t.includes('abcd'))
    p.drain.fire()
    const rest = await readText(reader, () => false)
    expect(first + rest).toContain('SHUTTING_DOWN')
    expect(p.outcome).toMatchObject({ end: 'drain', started: true, deliveredChars: 4 })
  })

  test('drain before the client first pulled: the error frame waits for it, settled once', async () => {
    const p = pipe()
    p.drain.fire()
    expect(p.outcome?.end).toBe('drain')
    const text = await new Response(p.body).text()
    expect(text.match(/SHUTTING_DOWN/g)).toHaveLength(1)
    expect(p.outcome?.started).toBe(false)
  })

  test('an upstream that ends without its terminal event fails, not completes', async () => {
    const p = pipe()
    p.up.send(chunk('partial'))
    p.up.end()
    const text = await new Response(p.body).text()
    expect(text).toContain('"error"')
    expect(p.outcome?.cause).toMatchObject({ kind: 'upstream_failed', afterFirstByte: true })
  })
})
