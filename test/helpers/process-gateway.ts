// A real Tollgate process for process-level fault tests (SIGKILL, SIGTERM, slow clients): the
// entry point spawned with its own env on real Postgres and Redis, plus the admin calls to fund a
// user, and the books read straight from Postgres and Redis.
import type { Subprocess } from 'bun'
import postgres from 'postgres'
import { createRedisStore } from '../../src/store/redis.ts'

const ENTRY = new URL('../../src/index.ts', import.meta.url).pathname
export const PROC_ADMIN = 'process-admin-token-0123456789'

export interface GatewayProcess {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>
  url: string
  /** Everything the process wrote on stderr so far (JSON log lines). */
  stderr(): string
}

/** Writes a one-model catalog (price: 1 USD/1M input, 2 USD/1M output) routed to `upstreamUrl`. */
export async function writeCatalog(upstreamUrl: string, timeoutMs: number): Promise<string> {
  const path = `/tmp/tollgate-proc-${process.pid}-${crypto.randomUUID()}.json`
  await Bun.write(
    path,
    JSON.stringify({
      gateways: [{ id: 'gw-a', protocol: 'openai-chat', baseUrl: `${upstreamUrl}/v1`, timeoutMs }],
      models: [
        {
          id: 'acme/chat-1',
          name: 'Chat',
          provider: 'acme',
          contextWindow: 100_000,
          capabilities: ['text'],
          pricing: { input: 1, output: 2 },
          routes: [{ gateway: 'gw-a', model: 'm' }],
        },
      ],
    }),
  )
  return path
}

export async function spawnGateway(env: Record<string, string>): Promise<GatewayProcess> {
  const proc = Bun.spawn(['bun', ENTRY], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ADMIN_TOKEN: PROC_ADMIN, LOG_LEVEL: 'info', ...env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let err = ''
  void (async () => {
    const dec = new TextDecoder()
    for await (const chunk of proc.stderr) err += dec.decode(chunk)
  })()
  const reader = proc.stdout.getReader()
  const dec = new TextDecoder()
  let out = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`gateway exited before listening: ${out}\n${err}`)
    out += dec.decode(value)
    const m = /tollgate listening on (http:\S+)/.exec(out)
    if (m) {
      reader.releaseLock()
      void proc.stdout.pipeTo(new WritableStream()).catch(() => {})
      return { proc, url: m[1]!, stderr: () => err }
    }
  }
}

/** A user funded with `usd` of credit and one API key, through the admin API. */
export async function fundedUser(url: string, usd: number): Promise<{ userId: string; key: string }> {
  const admin = { authorization: `Bearer ${PROC_ADMIN}`, 'content-type': 'application/json' }
  const user = (await (
    await fetch(`${url}/api/admin/users`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ email: `${crypto.randomUUID()}@test.local` }),
    })
  ).json()) as { id: string }
  const credited = await fetch(`${url}/api/admin/users/${user.id}/credits`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ amount: usd }),
  })
  if (!credited.ok) throw new Error(`credit failed: ${await credited.text()}`)
  const { key } = (await (
    await fetch(`${url}/api/admin/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ userId: user.id, rpm: 10_000 }) })
  ).json()) as { key: string }
  return { userId: user.id, key }
}

export const chatRequest = (url: string, key: string, stream: boolean, signal?: AbortSignal) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'acme/chat-1', stream, messages: [{ role: 'user', content: 'Say hello' }] }),
    signal,
  })

export interface Books {
  balance: bigint
  ledgerSum: bigint
  logs: { id: string; status: number; errorCode: string | null; cost: bigint }[]
}

/** Postgres balance, Σ completed ledger entries, and the user's request logs. */
export async function booksOf(dbUrl: string, userId: string): Promise<Books> {
  const sql = postgres(dbUrl, { max: 1, onnotice: () => {} })
  try {
    const [acct] = await sql`select balance_micros::text as b from accounts where user_id = ${userId}`
    const [sum] =
      await sql`select coalesce(sum(amount_micros), 0)::text as s from ledger_entries where user_id = ${userId} and status = 'completed'`
    const logs = await sql`select id, status, error_code, cost_micros::text as cost from request_logs where user_id = ${userId}`
    return {
      balance: BigInt(acct?.b ?? '0'),
      ledgerSum: BigInt(sum?.s ?? '0'),
      logs: logs.map((r) => ({
        id: r.id as string,
        status: r.status as number,
        errorCode: r.error_code as string | null,
        cost: BigInt(r.cost as string),
      })),
    }
  } finally {
    await sql.end()
  }
}

/** Micro-USD the user has reserved in Redis under `prefix`. */
export async function reservedIn(redisUrl: string, prefix: string, userId: string): Promise<bigint> {
  const store = await createRedisStore(redisUrl, { prefix, shards: 16 })
  try {
    return (await store.account(userId))?.reservedMicros ?? 0n
  } finally {
    await store.close()
  }
}
