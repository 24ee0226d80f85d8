// The ledger writer's one statement per batch (see ledger-writer.ts): the calls' request logs,
// one usage ledger entry per account for those that cost anything (each log names it), the
// balances, key spend and the report rollups (request_daily, latency_daily: docs/operators.md
// "Reports"), in one implicit transaction.
//
// Postgres's work per call is the log row and its index entries, nothing more (docs/scaling.md
// "The writer's statement"): the batch goes as one array per column, which Postgres reads with
// its plain input functions instead of unpacking JSON (unnest in the select list, so no array is
// first copied into a tuplestore), and every sum is made here
// (batch-tally.ts), so the statement's other parts write one row per account, key, day and model.
//
// Exactly once: the logs' primary key (id, created_at) — created_at comes from the record, so a
// redelivered call collides with itself. The logs are inserted without ON CONFLICT (which would
// probe the key a second time for every row): a call already written makes the whole statement
// fail with 23505, nothing of it counts, and the batch is written again without the calls
// Postgres holds. So an entry always sums exactly the logs its statement inserted.
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { booleanArray, integerArray, textArray } from '../db/array-literal.ts'
import { executePrepared } from '../db/prepared.ts'
import { base62 } from '../lib/ids.ts'
import { type BatchCall, tallyBatch } from './batch-tally.ts'
import { sqlState } from '../db/sql-state.ts'
import { decodeRecord, type OutboxRecord, sanitizedRecord } from './outbox-record.ts'

/**
 * A usage entry's id and reference: `txn_u_<batch>_<user>` and `usage:<batch>:<user>`, with a
 * batch token drawn for each run of the statement. They need not be derived from the calls:
 * a call is billed once because its request log (id, created_at) is inserted once, and an
 * entry sums only the logs its statement inserted (docs/api.md "Ledger").
 */
export const USAGE_ENTRY_PREFIX = 'txn_u_'

/** Times a batch is written again after another writer wrote some of its calls first. */
const MAX_COLLISIONS = 3

/** Encoded records (the outbox's text), as settlement, the fallback and dead-letter replay hold them. */
export async function writeRecords(db: Db, records: readonly string[]): Promise<number> {
  return writeBatch(db, records.map(readRecord))
}

/**
 * Writes the records (sanitised: outbox-record.ts sanitizedRecord) and returns the number of
 * calls billed (written with a cost above zero). A record Postgres would refuse throws an error
 * with its SQLSTATE (dead-letters.ts isRecordError), whether Postgres or this file refused it.
 */
export async function writeBatch(db: Db, records: readonly OutboxRecord[]): Promise<number> {
  let calls = distinctCalls(records)
  for (let collisions = 0; ; collisions++) {
    // After a collision, the batch again without the calls Postgres now holds.
    if (collisions > 0) calls = await unwritten(db, calls)
    if (calls.length === 0) return 0
    try {
      return await insertBatch(db, calls)
    } catch (err) {
      if (sqlState(err) !== UNIQUE_VIOLATION) throw err
      // Not a refused record: some of these calls were written meanwhile (a redelivery, or a
      // second writer). Thrown without a SQLSTATE, so the writer retries the batch later.
      if (collisions === MAX_COLLISIONS) throw new Error(`ledger batch collided ${collisions + 1} times with other writers: ${String(err)}`)
    }
  }
}

const UNIQUE_VIOLATION = '23505'

/** A record's receipt as the log's created_at, here and in unwritten(): the same expression, so the same instant. */
const CREATED_AT = (atMs: ReturnType<typeof sql>) => sql`to_timestamp(${atMs}::float8 / 1000)`

async function insertBatch(db: Db, calls: readonly BatchCall[]): Promise<number> {
  const token = base62(10)
  const t = tallyBatch(calls)
  const r = calls.map((c) => c.record)
  const col = <T>(f: (x: OutboxRecord) => T) => r.map(f)
  const texts = (f: (x: OutboxRecord) => string | null) => sql`${textArray(col(f))}::text::text[]`
  const ints = (f: (x: OutboxRecord) => number) => sql`${integerArray(col(f))}::text::int[]`
  await executePrepared(
    db,
    sql`
with logs as (
  insert into request_logs (id, user_id, key_id, model, gateway, protocol, stream, status, error_code,
    input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_micros,
    usage_source, latency_ms, created_at, models, fault, attempts, ledger_entry_id)
  select id, user_id, key_id, model, gateway, protocol, stream, status, error_code, input_tokens, output_tokens,
    cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_micros, usage_source, latency_ms, ${CREATED_AT(sql.raw('at_ms'))},
    models, fault, attempts, case when cost_micros > 0 then ${USAGE_ENTRY_PREFIX + token}::text || '_' || user_id end
  from (select unnest(${texts((x) => x.requestId)}) as id, unnest(${texts((x) => x.userId)}) as user_id, unnest(${texts((x) => x.keyId)}) as key_id,
    unnest(${texts((x) => x.model)}) as model, unnest(${texts((x) => x.gateway)}) as gateway, unnest(${texts((x) => x.protocol)}) as protocol,
    unnest(${booleanArray(col((x) => x.stream))}::text::bool[]) as stream, unnest(${ints((x) => x.status)}) as status,
    unnest(${texts((x) => x.errorCode)}) as error_code, unnest(${ints((x) => x.usage.inputTokens)}) as input_tokens,
    unnest(${ints((x) => x.usage.outputTokens)}) as output_tokens, unnest(${ints((x) => x.usage.cacheReadTokens)}) as cache_read_tokens,
    unnest(${ints((x) => x.usage.cacheWriteTokens)}) as cache_write_tokens, unnest(${ints((x) => x.usage.reasoningTokens)}) as reasoning_tokens,
    unnest(${integerArray(calls.map((c) => c.cost))}::text::bigint[]) as cost_micros, unnest(${texts((x) => x.usageSource)}) as usage_source,
    unnest(${ints((x) => x.latencyMs)}) as latency_ms, unnest(${integerArray(col((x) => x.at))}::text::bigint[]) as at_ms,
    unnest(${texts((x) => x.chain ?? null)}) as models, unnest(${texts((x) => x.fault ?? null)}) as fault,
    unnest(${texts((x) => (x.attempts === undefined ? null : JSON.stringify(x.attempts)))}::text[]::jsonb[]) as attempts) r
), entries as (
  insert into ledger_entries (id, user_id, kind, status, amount_micros, method, reference, meta, created_at, completed_at)
  select ${USAGE_ENTRY_PREFIX + token}::text || '_' || "userId", "userId", 'usage', 'completed', amount, 'api', ${`usage:${token}:`}::text || "userId",
    jsonb_build_object('calls', calls, 'from', ${CREATED_AT(sql.raw('"fromMs"'))}, 'to', ${CREATED_AT(sql.raw('"toMs"'))}), now(), now()
  from jsonb_to_recordset(${json(t.entries)}::jsonb) as e("userId" text, amount bigint, calls int, "fromMs" bigint, "toMs" bigint)
  returning user_id, amount_micros
), balances as (
  update accounts a set balance_micros = a.balance_micros + e.amount_micros, updated_at = now()
  from entries e where a.user_id = e.user_id
), keys as (
  update api_keys k set spent_micros = k.spent_micros + s.spent, last_used_at = greatest(k.last_used_at, ${CREATED_AT(sql.raw('s."lastMs"'))})
  from jsonb_to_recordset(${json(t.keys)}::jsonb) as s("keyId" text, spent bigint, "lastMs" bigint)
  where k.id = s."keyId"
), daily as (
  insert into request_daily as d
  select date '1970-01-01' + day, "userId", model, gateway, calls, errors, cost, "inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens"
  from jsonb_to_recordset(${json(t.daily)}::jsonb) as x(day int, "userId" text, model text, gateway text, calls bigint, errors bigint,
    cost bigint, "inputTokens" bigint, "outputTokens" bigint, "cacheReadTokens" bigint, "cacheWriteTokens" bigint)
  order by 1, 2, 3, 4
  on conflict (day, user_id, model, gateway) do update set calls = d.calls + excluded.calls, errors = d.errors + excluded.errors,
    cost_micros = d.cost_micros + excluded.cost_micros, input_tokens = d.input_tokens + excluded.input_tokens,
    output_tokens = d.output_tokens + excluded.output_tokens, cache_read_tokens = d.cache_read_tokens + excluded.cache_read_tokens,
    cache_write_tokens = d.cache_write_tokens + excluded.cache_write_tokens
), latency as (
  insert into latency_daily as l
  select date '1970-01-01' + day, model, latency_bucket("latencyMs"), sum(calls)
  from jsonb_to_recordset(${json(t.latency)}::jsonb) as x(day int, model text, "latencyMs" int, calls bigint)
  group by 1, 2, 3 order by 1, 2, 3
  on conflict (day, model, bucket) do update set calls = l.calls + excluded.calls
)
select 1`,
  )
  return t.billed
}

/** The calls of `calls` Postgres does not hold yet (by id and receipt, as the logs' key). */
async function unwritten(db: Db, calls: readonly BatchCall[]): Promise<BatchCall[]> {
  const written = await executePrepared<{ id: string; at_ms: string }>(
    db,
    sql`select r.id, r.at_ms::text as at_ms
  from unnest(${textArray(calls.map((c) => c.record.requestId))}::text::text[], ${integerArray(calls.map((c) => c.record.at))}::text::bigint[]) as r(id, at_ms)
  where exists (select from request_logs l where l.id = r.id and l.created_at = ${CREATED_AT(sql.raw('r.at_ms'))})`,
  )
  const held = new Set(written.map((w) => `${w.at_ms} ${w.id}`))
  return calls.filter((c) => !held.has(`${c.record.at} ${c.record.requestId}`))
}

/**
 * Each call once (a batch may hold a record twice: redelivered beside itself), with its cost
 * checked, in request-id order: two writers inserting overlapping batches then take the logs'
 * key locks in the same order, so they wait for each other instead of deadlocking.
 */
function distinctCalls(records: readonly OutboxRecord[]): BatchCall[] {
  const seen = new Set<string>()
  const calls: BatchCall[] = []
  for (const record of records) {
    const key = `${record.at} ${record.requestId}`
    if (seen.has(key)) continue
    seen.add(key)
    calls.push({ record, cost: costOf(record) })
  }
  return calls.sort((a, b) =>
    a.record.requestId < b.record.requestId ? -1 : a.record.requestId > b.record.requestId ? 1 : a.record.at - b.record.at,
  )
}

/** Leading and trailing white space as Postgres's integer input skips it. */
const PG_SPACE = /^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g
const INT8_MIN = -(2n ** 63n)
const INT8_MAX = 2n ** 63n - 1n

/** A record's cost as Postgres's bigint would read it — refused here, as Postgres would (22P02, 22003), when it is not one. */
function costOf(r: OutboxRecord): bigint {
  const text = String(r.cost).replace(PG_SPACE, '')
  if (!/^[+-]?\d+$/.test(text))
    throw refused('22P02', `invalid input syntax for type bigint: ${JSON.stringify(String(r.cost)).slice(0, 200)}`)
  const cost = BigInt(text)
  if (cost < INT8_MIN || cost > INT8_MAX) throw refused('22003', `value "${text.slice(0, 200)}" is out of range for type bigint`)
  return cost
}

/** An outbox text as a sanitised record; one that cannot be read is refused as Postgres refuses bad input (22P02). */
function readRecord(text: string): OutboxRecord {
  const r = decodeRecord(text)
  if (r === undefined) throw refused('22P02', 'unreadable outbox record')
  return sanitizedRecord(r)
}

const refused = (code: string, message: string) => Object.assign(new Error(message), { code })

/** Rows as a JSON array, bigints as decimal text (jsonb_to_recordset reads either into a bigint column). */
const json = (rows: readonly object[]) => JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? v.toString() : v))
