// The paced streaming client over TLS (every real upstream is https): the certificate is checked
// against the trusted roots (an untrusted one is refused, nothing is sent), SNI names the host, and
// the request written before the handshake completes still goes out. A throwaway self-signed
// certificate is made with openssl per run; the trusting client runs in a child process started
// with NODE_EXTRA_CA_CERTS, which Bun reads only at start.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { streamingPost } from '../../../src/providers/transport/h1-stream.ts'

const dir = mkdtempSync(join(tmpdir(), 'tg-tls-'))
const key = join(dir, 'key.pem')
const cert = join(dir, 'cert.pem')
let server: ReturnType<typeof Bun.serve>

beforeAll(() => {
  const made = Bun.spawnSync(
    [
      'openssl',
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
    ],
    { stderr: 'pipe' },
  )
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`)
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    tls: { key: Bun.file(key), cert: Bun.file(cert) },
    fetch: async (req) => new Response(`data: ${await req.text()}\n\n`, { headers: { 'content-type': 'text/event-stream' } }),
  })
})
afterAll(() => {
  server?.stop(true)
  rmSync(dir, { recursive: true, force: true })
})

describe('paced client over TLS', () => {
  test('a certificate no trusted root signed is refused', async () => {
    const url = `https://localhost:${server.port}/v1/chat/completions`
    await expect(streamingPost(url, {}, '{"n":1}', new AbortController().signal)).rejects.toThrow()
  })

  test('a trusted certificate: the body streams back', async () => {
    const entry = join(import.meta.dir, '../../../src/providers/transport/h1-stream.ts')
    const script = `const { streamingPost } = await import(${JSON.stringify(entry)})
const r = await streamingPost('https://localhost:${server.port}/v1/chat/completions', { 'content-type': 'application/json' }, '{"n":2}', new AbortController().signal)
console.log(r.status, JSON.stringify(await r.text()))`
    const child = Bun.spawn(['bun', '-e', script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: cert }, stdout: 'pipe', stderr: 'pipe' })
    const [out, err] = [await new Response(child.stdout).text(), await new Response(child.stderr).text()]
    expect(await child.exited).toBe(0)
    expect(err).toBe('')
    expect(out.trim()).toBe(`200 ${JSON.stringify('data: {"n":2}\n\n')}`)
  })
})
