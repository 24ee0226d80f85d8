// The real process: a bad env value stops it with one line naming the variable; SIGTERM lets
// an in-flight stream finish, flushes its settlement to Postgres, and exits 0.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import postgres from 'postgres'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse } from '../helpers/fixtures.ts'
import { freshDatabase, freshKeyPrefix, REDIS_URL, describeServices } from '../helpers/services.ts'

const ENTRY = new URL('../../src/index.ts', import.meta.url).pathname
const ADMIN = 'lifecycle-admin-token-0123456789'

async function waitForLine(stream: ReadableStream<Uint8Array>, match: RegExp): Promise<string> {
  const reader = stream.getReader()
  const dec = new TextDecoder()
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`process output ended before ${match}: ${text}`)
    text += dec.decode(value)
    const m = match.exec(text)
    if (m) {
      reader.releaseLock()
      return m[0]
    }
  }
}

describe('process lifecycle', () => {
  test('a bad environment value stops the process with one line naming it', async () => {
    const proc = Bun.spawn(['bun', ENTRY], {
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: 'memory://' },
      stderr: 'pipe',
      stdout: 'pipe',
    })
    const code = await proc.exited
    const err = (await new Response(proc.stderr).text()).trim()
    expect(code).toBe(2)
    expect(err.split('\n')).toHaveLength(1)
    expect(err).toContain('PORT')
  })
})

describeServices('process lifecycle on PostgreSQL and Redis', () => {
  let up: FakeUpstream
  let db: { url: string; drop: () => Promise<void> }
  let keys: ReturnType<typeof freshKeyPrefix>
  beforeAll(async () => {
    up = startFakeUpstream({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse'), chunkSize: 200, delayMs: 60 })
    db = await freshDatabase()
    keys = freshKeyPrefix()
  })
  afterAll(async () => {
    up.stop()
    await keys.clear()
    await db.drop()
  })

  test('SIGTERM lets an in-flight stream finish, writes its ledger entry, and exits 0', async () => {
    const catalogPath = `/tmp/tollgate-lifecycle-${process.pid}.json`
    await Bun.write(
      catalogPath,
      JSON.stringify({
        gateways: [{ id: 'gw-a', protocol: 'openai-chat', baseUrl: `${up.url}/v1` }],
        models: [
          {
            id: 'acme/chat-1',
            name: 'Chat',
            provider: 'acme',
            contextWindow: 8000,
            capabilities: ['text'],
            pricing: { input: 1, output: 2 },
            routes: [{ gateway: 'gw-a', model: 'm' }],
          },
        ],
      }),
    )
    const proc = Bun.spawn(['bun', ENTRY], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: db.url,
        REDIS_URL,
        REDIS_PREFIX: keys.prefix,
        CATALOG_FILE: catalogPath,
        ADMIN_TOKEN: ADMIN,
        LOG_LEVEL: 'info',
      },
      stderr: 'pipe',
      stdout: 'pipe',
    })
    try {
      const url = (await waitForLine(proc.stdout, /tollgate listening on (http:\S+)/)).split(' ')[3]!
      const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }
      const user = (await (
        await fetch(`${url}/api/admin/users`, { method: 'POST', headers: admin, body: JSON.stringify({ email: 'life@test.local' }) })
      ).json()) as any
      await fetch(`${url}/api/admin/users/${user.id}/credits`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 5 }) })
      const { key } = (await (
        await fetch(`${url}/api/admin/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ userId: user.id }) })
      ).json()) as any

      const res = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'acme/chat-1', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      })
      const requestId = res.headers.get('x-request-id')!
      const reader = res.body!.getReader()
      const first = await reader.read()
      expect(first.done).toBe(false)
      proc.kill('SIGTERM')
      let rest = new TextDecoder().decode(first.value)
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        rest += new TextDecoder().decode(value)
      }
      expect(rest.trimEnd().endsWith('data: [DONE]')).toBe(true)
      expect(await proc.exited).toBe(0)

      const sql = postgres(db.url, { max: 1 })
      const [log] = await sql`select status, cost_micros::text as cost from request_logs where id = ${requestId}`
      const [books] =
        await sql`select a.balance_micros::text as balance, (select sum(amount_micros)::text from ledger_entries l where l.user_id = a.user_id and l.status = 'completed') as ledger from accounts a where a.user_id = ${user.id}`
      await sql.end()
      expect(log?.status).toBe(200)
      expect(BigInt(log?.cost ?? '0')).toBeGreaterThan(0n)
      expect(books?.balance).toBe(books?.ledger)
      expect(BigInt(books!.balance)).toBe(5_000_000n - BigInt(log!.cost))
    } finally {
      proc.kill('SIGKILL')
    }
  })
})
