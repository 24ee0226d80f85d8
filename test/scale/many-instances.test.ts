// Three real Tollgate processes on one Postgres and one Redis behind a round-robin proxy behave
// as one system: one per-key rate window, one balance (reservations across instances never
// overspend it), a revocation reaches every instance, a catalog change reaches every instance,
// and a drained instance finishes its stream, bills it, and leaves the others serving.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import postgres from 'postgres'
import Redis from 'ioredis'
import { accountKey } from '../../src/store/keys.ts'
import { shardOf } from '../../src/store/types.ts'
import { completionWithUsage } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { simpleCatalog } from '../helpers/gateway.ts'
import { startInstance, type InstanceProcess } from '../helpers/instance-process.ts'
import { startLbProxy, type LbProxy } from '../helpers/lb-proxy.ts'
import { freshDatabase, freshKeyPrefix, REDIS_URL, describeServices } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

const ADMIN = 'scale-admin-token-0123456789'
const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }
const COST = 61n // "Say hello" with max_tokens 100 at the simple catalog's prices (see chat-concurrency)
const chunk = (o: object) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', ...o })}\n\n`
const SLOW_STREAM = [
  chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'hel' }, finish_reason: null }] }),
  chunk({ choices: [{ index: 0, delta: { content: 'lo' }, finish_reason: 'stop' }] }),
  chunk({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 100, total_tokens: 105 } }),
  'data: [DONE]\n\n',
].join('')

describeServices('three instances behind a proxy', () => {
  let up: FakeUpstream
  let database: { url: string; drop: () => Promise<void> }
  let keys: ReturnType<typeof freshKeyPrefix>
  let sql: ReturnType<typeof postgres>
  let redis: Redis
  const instances: InstanceProcess[] = []
  let lb: LbProxy
  const catalogPath = `/tmp/tollgate-scale-${process.pid}.json`

  /** While set, the upstream holds its answers until every call of the burst was admitted or refused. */
  let burst: { size: number; arrived: number; refused: number; release: () => void; decided: Promise<void> } | undefined
  const decided = () => {
    if (burst && burst.arrived + burst.refused === burst.size) burst.release()
  }

  beforeAll(async () => {
    up = startFakeUpstream({
      kind: 'fn',
      handle: async (_req, body) => {
        if (burst) {
          burst.arrived++
          decided()
          await burst.decided
        }
        if (!body.stream) return Response.json(completionWithUsage(5, 100))
        return new Response(
          new ReadableStream({
            async start(c) {
              for (const frame of SLOW_STREAM.split(/(?<=\n\n)/)) {
                c.enqueue(new TextEncoder().encode(frame))
                await Bun.sleep(400) // long enough for the drain to begin mid-stream
              }
              c.close()
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        )
      },
    })
    database = await freshDatabase()
    keys = freshKeyPrefix()
    await Bun.write(catalogPath, JSON.stringify(simpleCatalog([{ id: 'gw-a', url: up.url }])))
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: keys.prefix,
      CATALOG_FILE: catalogPath,
      ADMIN_TOKEN: ADMIN,
      KEY_CACHE_TTL_MS: '1000',
      SETTLE_FLUSH_MS: '0',
    }
    // The first one migrates; the others start together (the migration lock serialises them anyway).
    instances.push(await startInstance(env))
    instances.push(...(await Promise.all([startInstance(env), startInstance(env)])))
    lb = startLbProxy(instances.map((i) => i.url))
    sql = postgres(database.url, { max: 2, onnotice: () => {} })
    redis = new Redis(REDIS_URL)
  }, 120_000)
  afterAll(async () => {
    lb?.stop()
    for (const i of instances) await i.stop()
    await sql?.end()
    redis?.disconnect()
    up?.stop()
    await keys?.clear()
    await database?.drop()
    await Bun.file(catalogPath)
      .delete()
      .catch(() => {})
  }, 60_000)

  async function user(usd: number, key: Record<string, unknown> = {}) {
    const u = (await (
      await fetch(`${lb.url}/api/admin/users`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ email: `${crypto.randomUUID()}@scale.test` }),
      })
    ).json()) as { id: string }
    expect(
      (await fetch(`${lb.url}/api/admin/users/${u.id}/credits`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: usd }) }))
        .status,
    ).toBe(200)
    const k = (await (
      await fetch(`${lb.url}/api/admin/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ userId: u.id, ...key }) })
    ).json()) as { id: string; key: string }
    return { userId: u.id, keyId: k.id, key: k.key }
  }

  const call = (base: string, key: string, extra: Record<string, unknown> = {}) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 100, ...extra }),
    })

  /** Waits until every answered call is in Postgres, then checks the books and that nothing stays reserved. */
  async function expectBooks(userId: string, credit: bigint, answered: string[]) {
    const written = async () => {
      const [r] = await sql`select count(*)::int as n from request_logs where user_id = ${userId} and ledger_entry_id is not null`
      return r!.n >= answered.length
    }
    await until(written, 'answered calls written', 60_000)
    // Each answered call's log has its cost and names a usage entry; each entry is exactly the
    // calls naming it (docs/api.md "Ledger").
    const calls = await sql`select id, cost_micros::text as cost from request_logs where user_id = ${userId} and cost_micros > 0`
    expect(calls.map((c) => c.id).sort()).toEqual([...answered].sort())
    expect(calls.every((c) => BigInt(c.cost) === COST)).toBe(true)
    const mismatched = await sql`
      select e.id from ledger_entries e
      left join (select ledger_entry_id, sum(cost_micros) as cost from request_logs where user_id = ${userId} group by 1) l on l.ledger_entry_id = e.id
      where e.user_id = ${userId} and e.kind = 'usage' and e.amount_micros <> -coalesce(l.cost, 0)`
    expect(mismatched.map((e) => e.id)).toEqual([])
    const [b] =
      await sql`select a.balance_micros::text as balance, (select sum(amount_micros)::text from ledger_entries l where l.user_id = a.user_id and l.status = 'completed') as ledger from accounts a where a.user_id = ${userId}`
    expect(BigInt(b!.balance)).toBe(credit - COST * BigInt(answered.length))
    expect(b!.ledger).toBe(b!.balance)
    const reserved = await redis.hget(accountKey({ prefix: keys.prefix, shards: 16 }, shardOf(userId, 16), userId), 'reserved')
    expect(BigInt(reserved ?? '0')).toBe(0n)
  }

  test('one rate window per key across instances: rpm 12 admits exactly 12 of 30', async () => {
    // Stay inside one 60 s window: a window boundary mid-test would legitimately admit more.
    if (Date.now() % 60_000 > 45_000) await Bun.sleep(60_000 - (Date.now() % 60_000) + 100)
    const u = await user(5, { rpm: 12 })
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        call(lb.url, u.key).then(async (r) => ({ status: r.status, id: r.headers.get('x-request-id')!, text: await r.text() })),
      ),
    )
    expect(new Set(lb.served.slice(-30)).size).toBe(3)
    expect(results.filter((r) => r.status === 200)).toHaveLength(12)
    expect(results.filter((r) => r.status === 429)).toHaveLength(18)
    await expectBooks(
      u.userId,
      5_000_000n,
      results.filter((r) => r.status === 200).map((r) => r.id),
    )
  }, 60_000)

  test('one balance across instances: a balance of 10 calls runs exactly 5 of 30 concurrent ones at once', async () => {
    const u = await user(Number(COST * 10n) / 1e6, { rpm: 1_000 })
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    burst = { size: 30, arrived: 0, refused: 0, release, decided: held }
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        call(lb.url, u.key).then(async (r) => {
          if (r.status !== 200 && burst) burst.refused++
          decided()
          return { status: r.status, id: r.headers.get('x-request-id')!, text: await r.text() }
        }),
      ),
    )
    burst = undefined
    // Each call in flight is covered twice (docs/operations.md "Overdraft"): 10 − 2 × 4 ≥ 1 is the last.
    expect(results.filter((r) => r.status === 200)).toHaveLength(5)
    expect(results.filter((r) => r.status === 402)).toHaveLength(25)
    await expectBooks(
      u.userId,
      COST * 10n,
      results.filter((r) => r.status === 200).map((r) => r.id),
    )
  }, 60_000)

  test('a revocation on one instance holds there at once and on the others within KEY_CACHE_TTL_MS', async () => {
    const u = await user(5)
    const before = await Promise.all(
      instances.map((i) => call(i.url, u.key).then(async (r) => ({ status: r.status, id: r.headers.get('x-request-id')! }))),
    )
    expect(before.map((r) => r.status)).toEqual([200, 200, 200])
    expect((await fetch(`${instances[0]!.url}/api/admin/keys/${u.keyId}`, { method: 'DELETE', headers: admin })).status).toBe(200)
    expect((await call(instances[0]!.url, u.key)).status).toBe(401)
    // Until an instance's cache expires, it still serves (and bills) the key: those calls count.
    const billed = before.map((r) => r.id)
    for (const i of instances)
      await until(async () => {
        const r = await call(i.url, u.key)
        if (r.status === 200) billed.push(r.headers.get('x-request-id')!)
        return r.status === 401
      }, 'revocation seen')
    const after = await Promise.all(Array.from({ length: 9 }, () => call(lb.url, u.key).then((r) => r.status)))
    expect(after).toEqual(Array(9).fill(401))
    await expectBooks(u.userId, 5_000_000n, billed)
  }, 60_000)

  test('a catalog change in Postgres reaches every instance (periodic refresh)', async () => {
    const u = await user(5)
    const next = simpleCatalog([{ id: 'gw-a', url: up.url }])
    next.models.push({ ...next.models[0]!, id: 'acme/chat-2', name: 'Chat 2' })
    // What an operator's reload does: upsert the catalog file into Postgres.
    const { openDatabase } = await import('../../src/db/client.ts')
    const { parseCatalogFile, upsertCatalog } = await import('../../src/catalog/file.ts')
    const db = await openDatabase(database.url)
    await upsertCatalog(db.db, parseCatalogFile(next))
    await db.close()
    for (const i of instances) {
      await until(
        async () =>
          (
            (await (await fetch(`${i.url}/v1/models`, { headers: { authorization: `Bearer ${u.key}` } })).json()) as {
              data: { id: string }[]
            }
          ).data.some((m) => m.id === 'acme/chat-2'),
        'model listed',
        60_000,
      )
      expect((await call(i.url, u.key, { model: 'acme/chat-2' })).status).toBe(200)
    }
  }, 90_000)

  test('drain: SIGTERM on one instance finishes its stream and bills it; the proxy routes around it and nothing fails', async () => {
    const u = await user(5, { rpm: 10_000 })
    const victim = instances[2]!
    const res = await call(victim.url, u.key, { stream: true }).catch((e) => {
      throw new Error(`${e}; instance output: ${victim.output()}; exit ${victim.proc.exitCode}`)
    })
    expect(res.status).toBe(200)
    const streamId = res.headers.get('x-request-id')!
    const reader = res.body!.getReader()
    expect((await reader.read()).done).toBe(false)
    victim.proc.kill('SIGTERM')
    const during: { status: number; id: string }[] = []
    const load = (async () => {
      // Calls through the proxy for as long as the victim drains.
      while (victim.proc.exitCode === null) {
        const r = await call(lb.url, u.key)
        during.push({ status: r.status, id: r.headers.get('x-request-id')! })
        await r.text()
      }
    })()
    let text = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true)
    expect(await victim.proc.exited).toBe(0)
    await load
    await until(() => lb.healthy().length === 2, 'proxy dropped the drained instance', 60_000)
    const tail = await Promise.all(
      Array.from({ length: 6 }, () => call(lb.url, u.key).then(async (r) => ({ status: r.status, id: r.headers.get('x-request-id')! }))),
    )
    const all = [...during, ...tail]
    expect(during.length).toBeGreaterThan(0)
    expect(all.filter((r) => r.status !== 200)).toEqual([])
    await expectBooks(u.userId, 5_000_000n, [streamId, ...all.map((r) => r.id)])
  }, 90_000)
})
