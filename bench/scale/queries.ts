// The console's page queries, run through the real services (so the SQL is exactly what the API
// sends), timed over many users and cursors; and each query's EXPLAIN (ANALYZE, BUFFERS) plan,
// captured from the driver's debug hook and re-run with the same text and parameters.
import type { Sql } from 'postgres'
import { listLogs, logDetail } from '../../src/console/logs/service.ts'
import { listTransactions, transactionDetail } from '../../src/console/transactions/service.ts'
import type { ConsoleDeps } from '../../src/console/deps.ts'
import { encodeCursor } from '../../src/console/http/pagination.ts'
import type { Db } from '../../src/db/client.ts'

export interface Case {
  name: string
  /** One call of the query for the i-th iteration. */
  run: (i: number) => Promise<unknown>
}

export interface Fixtures {
  typicalUsers: string[]
  whaleLogCursor: string
  whaleTxnCursor: string
  whaleLogIds: string[]
  whaleTxnIds: string[]
  refundedTxnId: string
}

/** Cursors halfway down the whale's history, ids to look up, typical users. */
export async function fixtures(sql: Sql, users: number, rows: number): Promise<Fixtures> {
  const half = async (table: string) => {
    const [r] = await sql.unsafe(
      `select (extract(epoch from created_at) * 1000000)::bigint::text as at, id from ${table} where user_id = 'usr_0' order by created_at desc, id desc offset ${Math.floor(rows / 20)} limit 1`,
    )
    return encodeCursor({ at: r!.at, id: r!.id })
  }
  const ids = async (table: string) =>
    (await sql.unsafe(`select id from ${table} where user_id = 'usr_0' and id like '%0' limit 200`)).map((r) => r.id as string)
  const [refunded] = await sql`select meta->>'refundOf' as id from ledger_entries where kind = 'refund' and user_id = 'usr_0' limit 1`
  return {
    typicalUsers: Array.from({ length: 200 }, (_, i) => `usr_${1 + ((i * 7919) % (users - 1))}`),
    whaleLogCursor: await half('request_logs'),
    whaleTxnCursor: await half('ledger_entries'),
    whaleLogIds: await ids('request_logs'),
    whaleTxnIds: await ids('ledger_entries'),
    refundedTxnId: refunded!.id,
  }
}

export function cases(db: Db, f: Fixtures): Case[] {
  const deps = { db } as unknown as ConsoleDeps
  const typical = (i: number) => f.typicalUsers[i % f.typicalUsers.length]!
  const pick = <T>(a: T[], i: number) => a[i % a.length]!
  return [
    { name: 'logs page 1 (typical user)', run: (i) => listLogs(deps, typical(i), { limit: 20 }) },
    { name: 'logs page 1 (whale, 1/10 of rows)', run: () => listLogs(deps, 'usr_0', { limit: 20 }) },
    { name: 'logs deep page (whale, halfway)', run: () => listLogs(deps, 'usr_0', { limit: 20, cursor: f.whaleLogCursor }) },
    { name: 'logs filter keyId (whale)', run: (i) => listLogs(deps, 'usr_0', { limit: 20, keyId: `key_0_${i % 3}` }) },
    { name: 'logs filter model (whale)', run: (i) => listLogs(deps, 'usr_0', { limit: 20, model: `acme/model-${i % 20}` }) },
    { name: 'log detail (whale, any month)', run: (i) => logDetail(deps, 'usr_0', pick(f.whaleLogIds, i)) },
    { name: 'transactions page 1 (typical user)', run: (i) => listTransactions(deps, typical(i), { limit: 20 }) },
    { name: 'transactions page 1 (whale)', run: () => listTransactions(deps, 'usr_0', { limit: 20 }) },
    { name: 'transactions deep page (whale)', run: () => listTransactions(deps, 'usr_0', { limit: 20, cursor: f.whaleTxnCursor }) },
    {
      name: 'transactions kind=refund (whale, 0.1 % of its rows)',
      run: () => listTransactions(deps, 'usr_0', { limit: 20, kind: 'refund' }),
    },
    {
      name: 'transactions status=pending (whale, 0.1 % of its rows)',
      run: () => listTransactions(deps, 'usr_0', { limit: 20, status: 'pending' }),
    },
    {
      name: 'transaction detail (usage, with refunds)',
      run: (i) => transactionDetail(deps, 'usr_0', i % 2 ? f.refundedTxnId : pick(f.whaleTxnIds, i)),
    },
  ]
}

export interface Timing {
  name: string
  n: number
  p50: number
  p99: number
  max: number
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!

export async function time(c: Case, n: number, warm: number): Promise<Timing> {
  for (let i = 0; i < warm; i++) await c.run(i)
  const ms: number[] = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await c.run(i)
    ms.push(performance.now() - t)
  }
  ms.sort((a, b) => a - b)
  return { name: c.name, n, p50: pct(ms, 50), p99: pct(ms, 99), max: ms.at(-1)! }
}

/** The plans of one case's statements: its queries are captured while it runs once. */
export async function explain(sql: Sql, captured: { query: string; params: unknown[] }[], c: Case): Promise<string[]> {
  captured.length = 0
  await c.run(1)
  const plans: string[] = []
  for (const q of [...captured]) {
    const rows = await sql.unsafe(`explain (analyze, buffers, costs off, summary off) ${q.query}`, q.params as never[])
    plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'))
  }
  return plans
}
