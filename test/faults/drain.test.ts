// Fault: SIGTERM while calls are in flight (docs/drain.md "Graceful drain"). Readiness fails and
// admission stops at once; every admitted call — waiting for the upstream or streaming — finishes
// and settles within the grace; what is still open when it ends gets the protocol's error and is
// billed for what was delivered. Real processes on real Postgres and Redis.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { completionWithUsage, readUntilClosed } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import {
  booksOf,
  chatRequest,
  fundedUser,
  reservedIn,
  spawnGateway,
  writeCatalog,
  type GatewayProcess,
} from '../helpers/process-gateway.ts'
import { freshDatabase, freshKeyPrefix, REDIS_URL, describeServices } from '../helpers/services.ts'
import { tickingStream } from './upstreams.ts'
import { until } from '../helpers/until.ts'

describeServices('fault: SIGTERM during calls', () => {
  let up: FakeUpstream
  let db: Awaited<ReturnType<typeof freshDatabase>>
  let keys: ReturnType<typeof freshKeyPrefix>
  let catalog: string
  const procs: GatewayProcess[] = []
  const start = async (env: Record<string, string>) => {
    const g = await spawnGateway({ DATABASE_URL: db.url, REDIS_URL, REDIS_PREFIX: keys.prefix, CATALOG_FILE: catalog, ...env })
    procs.push(g)
    return g
  }
  beforeAll(async () => {
    up = startFakeUpstream(tickingStream(100))
    db = await freshDatabase()
    keys = freshKeyPrefix()
    catalog = await writeCatalog(up.url, 10_000)
  }, 60_000)
  afterAll(async () => {
    for (const g of procs) g.proc.kill('SIGKILL')
    up.stop()
    await keys.clear()
    await db.drop()
  })

  test('20 non-streaming calls waiting for the upstream all get their answer, each billed once; readiness and admission fail at once; exit 0', async () => {
    const gw = await start({ SHUTDOWN_GRACE_MS: '60000' })
    const user = await fundedUser(gw.url, 1)
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const seenBefore = up.seen.length
    up.script(
      ...Array.from({ length: 20 }, () => ({
        kind: 'fn' as const,
        handle: async () => (await gate, Response.json(completionWithUsage(9, 5))),
      })),
    )
    const calls = Array.from({ length: 20 }, () => chatRequest(gw.url, user.key, false))
    await until(async () => up.seen.length - seenBefore === 20, 'all 20 calls at the upstream', 30_000)

    gw.proc.kill('SIGTERM')
    await until(async () => (await fetch(`${gw.url}/readyz`)).status === 503, 'readiness to fail', 10_000)
    const ready = (await (await fetch(`${gw.url}/readyz`)).json()) as { status: string }
    expect(ready.status).toBe('draining')
    const refused = await chatRequest(gw.url, user.key, false)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(((await refused.json()) as any).error.code).toBe('SHUTTING_DOWN')
    expect(up.seen.length - seenBefore).toBe(20)

    release()
    const answers = await Promise.all(calls).catch((e) => {
      console.log(gw.stderr())
      throw e
    })
    const bodies = await Promise.all(answers.map((r) => r.json() as Promise<any>))
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200))
    for (const b of bodies) expect(b.choices[0].message.content).toBe('hello')
    expect(await gw.proc.exited).toBe(0)

    const ids = answers.map((r) => r.headers.get('x-request-id')!)
    const books = await booksOf(db.url, user.userId)
    const logs = books.logs.filter((l) => ids.includes(l.id))
    expect(logs.map((l) => [l.status, l.cost])).toEqual(Array(20).fill([200, 19n]))
    expect(books.balance).toBe(books.ledgerSum)
    expect(books.balance).toBe(1_000_000n - 20n * 19n)
    expect(await reservedIn(REDIS_URL, keys.prefix, user.userId)).toBe(0n)
  }, 120_000)

  test('calls still open when the grace ends are cut: streams get the protocol error event and pay what was delivered, a call still waiting gets 503; all settled, exit 0', async () => {
    const gw = await start({ SHUTDOWN_GRACE_MS: '1500' })
    const user = await fundedUser(gw.url, 1)
    const chat = await chatRequest(gw.url, user.key, true)
    const messages = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': user.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'acme/chat-1', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Say hello' }] }),
    })
    const seen = up.seen.length
    up.script({ kind: 'hang' })
    const waiting = chatRequest(gw.url, user.key, false)
    await until(async () => up.seen.length > seen, 'the waiting call at the upstream', 30_000)
    const texts = [readUntilClosed(chat.body!.getReader()), readUntilClosed(messages.body!.getReader())]

    gw.proc.kill('SIGTERM')
    const [chatText, messagesText] = await Promise.all(texts)
    const cut = await waiting
    expect(await gw.proc.exited).toBe(0)

    expect(chatText).toContain('Hel')
    expect(chatText).toContain('"code":"SHUTTING_DOWN"')
    expect(chatText).not.toContain('[DONE]')
    expect(messagesText).toContain('event: error')
    expect(messagesText).not.toContain('message_stop')
    expect(cut.status).toBe(503)
    expect(((await cut.json()) as any).error.code).toBe('SHUTTING_DOWN')

    const ids = [chat, messages, cut].map((r) => r.headers.get('x-request-id')!)
    const books = await booksOf(db.url, user.userId)
    const logs = ids.map((id) => books.logs.find((l) => l.id === id)!)
    expect(logs.map((l) => [l.status, l.errorCode])).toEqual([
      [503, 'SHUTTING_DOWN'],
      [503, 'SHUTTING_DOWN'],
      [503, 'SHUTTING_DOWN'],
    ])
    // Streams pay the prompt estimate plus the output they delivered; the waiting call its prompt.
    expect(logs[0]!.cost).toBeGreaterThan(logs[2]!.cost)
    expect(logs[2]!.cost).toBeGreaterThan(0n)
    expect(books.balance).toBe(books.ledgerSum)
    expect(books.balance).toBe(1_000_000n - logs.reduce((s, l) => s + l.cost, 0n))
    expect(await reservedIn(REDIS_URL, keys.prefix, user.userId)).toBe(0n)
  }, 120_000)
})
