// The paced streaming client (src/providers/transport/h1-stream.ts): a large body arrives whole and in
// order, in chunks of at most 64 KiB however much one socket read brought, whether it is read
// at once or slowly.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { streamingPost } from '../../../src/providers/transport/h1-stream.ts'

const BODY_BYTES = 3 * 1024 * 1024 + 123
const body = new Uint8Array(BODY_BYTES).map((_, i) => (i * 31 + 7) & 255)
let server: ReturnType<typeof Bun.serve>
let url: string

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () =>
      new Response(
        new ReadableStream({
          start(c) {
            // Large pieces, so one socket read on the client side can bring hundreds of KiB.
            for (let at = 0; at < body.length; at += 1024 * 1024) c.enqueue(body.slice(at, at + 1024 * 1024))
            c.close()
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
  })
  url = `http://127.0.0.1:${server.port}/v1/chat/completions`
})
afterAll(() => server.stop(true))

async function readAll(res: Response, pauseEveryMs = 0) {
  const reader = res.body!.getReader()
  const parts: Uint8Array[] = []
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    parts.push(value)
    if (pauseEveryMs > 0 && parts.length % 8 === 0) await Bun.sleep(pauseEveryMs)
  }
  return parts
}

for (const [how, pause] of [
  ['read at once', 0],
  ['read slowly', 20],
] as const)
  test(`${how}: the whole body in order, no chunk above 64 KiB`, async () => {
    const res = await streamingPost(url, { 'content-type': 'application/json' }, '{}', new AbortController().signal)
    expect(res.status).toBe(200)
    const parts = await readAll(res, pause)
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThanOrEqual(64 * 1024)
    const got = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
    parts.reduce((at, p) => (got.set(p, at), at + p.length), 0)
    expect(got.length).toBe(BODY_BYTES)
    expect(Bun.hash(got)).toBe(Bun.hash(body))
  })
