// Fault: 200 clients that stop reading 23 MB streams (issue 7). Backpressure holds the upstream
// to the client's pace, so the gateway's memory stays bounded; other clients keep being served;
// a client idle longer than CLIENT_IDLE_TIMEOUT_MS is cut, its upstream aborted and the call
// billed for what was delivered. A real gateway process (its peak RSS is measured) on real
// Postgres and Redis; the clients are raw sockets that stop reading after their first bytes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import net from 'node:net'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { completionWithUsage } from '../helpers/chat.ts'
import { booksOf, chatRequest, fundedUser, reservedIn, spawnGateway, until, writeCatalog, type GatewayProcess } from '../helpers/process-gateway.ts'
import { freshDatabase, freshKeyPrefix, REDIS_URL } from '../helpers/services.ts'
import { longStream } from './upstreams.ts'

const CLIENTS = Number(process.env.EXP_CLIENTS ?? 200)
const STREAM_BYTES = 23 * 1024 * 1024
const CLIENT_IDLE_MS = 10_000

/** Sends a streaming call over a raw socket and stops reading once the first bytes arrived. */
function stalledClient(port: number, key: string): Promise<net.Socket> {
  const body = JSON.stringify({ model: 'acme/chat-1', stream: true, messages: [{ role: 'user', content: 'Say hello' }] })
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ port, host: '127.0.0.1' }, () => {
      socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
    })
    socket.once('data', () => {
      socket.pause()
      resolve(socket)
    })
    socket.once('error', reject)
  })
}

/** Peak resident memory of a process (VmHWM), in MB. */
async function peakRssMb(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text()
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024
}

describe('fault: 200 clients that stop reading 23 MB streams', () => {
  let up: FakeUpstream
  let db: Awaited<ReturnType<typeof freshDatabase>>
  let keys: ReturnType<typeof freshKeyPrefix>
  let gw: GatewayProcess
  let aborted = 0
  const sockets: net.Socket[] = []
  beforeAll(async () => {
    const long = longStream(STREAM_BYTES, () => aborted++)
    const short = longStream(512 * 1024, () => {})
    // A request carrying `user: "fast"` gets a short stream; the stalled clients get 23 MB.
    up = startFakeUpstream({ kind: 'fn', handle: (req, body) => (body.user === 'fast' ? short : long).handle(req, body) })
    db = await freshDatabase()
    keys = freshKeyPrefix()
    gw = await spawnGateway({ DATABASE_URL: db.url, REDIS_URL, REDIS_PREFIX: keys.prefix, CATALOG_FILE: await writeCatalog(up.url, 30_000), CLIENT_IDLE_TIMEOUT_MS: String(CLIENT_IDLE_MS) })
  }, 60_000)
  afterAll(async () => {
    for (const s of sockets) s.destroy()
    gw?.proc.kill('SIGKILL')
    up.stop()
    await keys.clear()
    await db.drop()
  })

  test('memory stays bounded, another client is served meanwhile, idle clients are cut and billed what was delivered', async () => {
    const user = await fundedUser(gw.url, 100)
    const port = Number(new URL(gw.url).port)
    for (let i = 0; i < CLIENTS; i += 20) sockets.push(...(await Promise.all(Array.from({ length: Math.min(20, CLIENTS - i) }, () => stalledClient(port, user.key)))))
    expect(sockets).toHaveLength(CLIENTS)

    // Another client, while all 200 sit unread: a whole stream and a few answers come through.
    const fast = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'acme/chat-1', stream: true, user: 'fast', messages: [{ role: 'user', content: 'Say hello' }] }),
    })
    const fastText = await fast.text()
    expect(fastText.trimEnd().endsWith('data: [DONE]')).toBe(true)
    for (let i = 0; i < 3; i++) {
      up.script({ kind: 'json', body: completionWithUsage(9, 5) })
      expect((await chatRequest(gw.url, user.key, false)).status).toBe(200)
    }
    console.log(`peak before the cut: ${(await peakRssMb(gw.proc.pid)).toFixed(0)} MB`)
    console.log(`fast client served with ${CLIENTS - aborted} of ${CLIENTS} stalled streams still open`)

    await until(async () => aborted === CLIENTS, 120_000, 'every stalled stream to be cut and its upstream aborted')
    const peak = await peakRssMb(gw.proc.pid)
    console.log(`gateway peak RSS with ${CLIENTS} stalled 23 MB streams: ${peak.toFixed(0)} MB`)
    expect(peak).toBeLessThan(300)

    await until(async () => (await booksOf(db.url, user.userId)).logs.length >= CLIENTS + 4, 60_000, 'every call to be written')
    const books = await booksOf(db.url, user.userId)
    const idle = books.logs.filter((l) => l.errorCode === 'CLIENT_IDLE')
    expect(idle).toHaveLength(CLIENTS)
    for (const l of idle) {
      expect(l.status).toBe(499)
      expect(l.cost).toBeGreaterThan(100n)
    }
    expect(books.balance).toBe(books.ledgerSum)
    expect(books.balance).toBe(100_000_000n - books.logs.reduce((s, l) => s + l.cost, 0n))
    expect(await reservedIn(REDIS_URL, keys.prefix, user.userId)).toBe(0n)
  }, 240_000)
})
