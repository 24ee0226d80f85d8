// The real process (src/index.ts): Bun's own body limit never answers in place of the app's, so a
// body far above MAX_BODY_BYTES — declared or chunked, on the console or /v1 — still gets the 413
// in its surface's envelope with x-request-id (above 8 MiB Bun's own limit would answer a bare 413;
// docs/security.md "Limits").
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { expectRefusal } from './hostile.ts'

const ENTRY = new URL('../../src/index.ts', import.meta.url).pathname

describe('body limit of the real listener', () => {
  let proc: ReturnType<typeof Bun.spawn>
  let base: string
  beforeAll(async () => {
    proc = Bun.spawn(['bun', ENTRY], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'memory://', LOG_LEVEL: 'error', REDIS_URL: '' },
      stdout: 'pipe',
      stderr: 'inherit',
    })
    const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader()
    let text = ''
    while (!/listening on (http:\/\/\S+)/.test(text)) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`process ended: ${text}`)
      text += new TextDecoder().decode(value)
    }
    reader.releaseLock()
    base = /listening on (http:\/\/\S+)/.exec(text)![1]!
  }, 60_000)
  afterAll(async () => {
    proc?.kill()
    await proc?.exited
  }, 60_000)

  test('9 MiB to the console and to /v1: our 413 envelope, never a bare one', async () => {
    const nine = 'x'.repeat(9 * 1024 * 1024)
    for (const path of ['/api/auth/register', '/v1/chat/completions']) {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-none' },
        body: nine,
      })
      // /v1 authenticates first: no key is a 401 before the body is read; the console is 413.
      expect(res.status).toBe(path.startsWith('/v1') ? 401 : 413)
      await expectRefusal(res, path)
    }
    const chunked = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new Uint8Array(1024 * 1024).fill(120))
        c.close()
      },
    })
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunked,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
    expect((await expectRefusal(res, '/api/auth/login')).error.code).toBe('PAYLOAD_TOO_LARGE')
  }, 60_000)

  test('a declared length far beyond any limit (100 GB) is refused at once by the app', async () => {
    const head = await new Promise<string>((resolve, reject) => {
      const port = Number(new URL(base).port)
      const sock = connect(port, '127.0.0.1', () =>
        sock.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000000\r\n\r\n{'),
      )
      let got = ''
      sock.on('data', (d) => {
        got += d
        if (got.includes('\r\n\r\n') && got.includes('}}')) {
          sock.destroy()
          resolve(got)
        }
      })
      sock.on('error', reject)
    })
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large')
    expect(head.toLowerCase()).toContain('x-request-id: req_')
    expect(head).toContain('"PAYLOAD_TOO_LARGE"')
  }, 60_000)
})
