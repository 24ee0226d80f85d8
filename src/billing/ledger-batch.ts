// The ledger writer's one statement per batch (see ledger-writer.ts): request logs inserted
// idempotently, one usage ledger entry per account for the calls this batch inserted (each log
// names it), balances, key spend and the report rollups (request_daily, latency_daily:
// docs/operators.md "Reports") moved only by what was inserted. An error
// is a call with a fault (the upstream's or Tollgate's: core/call-end.ts), whatever its status.
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { executePrepared } from '../db/prepared.ts'
import { base62 } from '../lib/ids.ts'

/**
 * A usage entry's id and reference: `txn_u_<batch>_<user>` and `usage:<batch>:<user>`, with a
 * batch token drawn for each run of the statement. They need not be derived from the calls:
 * a call is billed once because its request log (id, created_at) is inserted once, and an
 * entry sums only the logs its statement inserted (docs/api.md "Ledger").
 */
export const USAGE_ENTRY_PREFIX = 'txn_u_'

/**
 * One statement (so one implicit transaction) per batch: Postgres unpacks the records from a
 * single JSON parameter, inserts the logs with ON CONFLICT DO NOTHING, adds one usage entry per
 * account summing the costs of the logs it inserted, and moves balances and key spend by the
 * same. Building the batch in SQL rather than through the query builder keeps the writer's CPU
 * per record small; running it prepared spares Postgres planning it again for every batch
 * (db/prepared.ts). Returns the number of calls billed (inserted with a cost above zero).
 */
export async function writeRecords(db: Db, records: string[]): Promise<number> {
  if (records.length === 0) return 0
  const batch = `[${records.join(',')}]`
  const token = base62(10)
  const rows = await executePrepared<{ inserted: number }>(
    db,
    sql`
with input as (
  select r.*, (r.usage->>'inputTokens')::int as in_t, (r.usage->>'outputTokens')::int as out_t,
         (r.usage->>'cacheReadTokens')::int as cr_t, (r.usage->>'cacheWriteTokens')::int as cw_t,
         (r.usage->>'reasoningTokens')::int as rs_t, r.cost::bigint as cost_m,
         to_timestamp(r."at" / 1000.0) as at_ts,
         case when r.cost::bigint > 0 then ${USAGE_ENTRY_PREFIX}::text || ${token}::text || '_' || r."userId" end as entry_id
  from jsonb_to_recordset(${batch}::jsonb) as r("requestId" text, "userId" text, "keyId" text, model text,
       gateway text, protocol text, stream boolean, status int, "errorCode" text, usage jsonb, cost text,
       "usageSource" text, "latencyMs" float8, "at" bigint, chain text, fault text, attempts jsonb)
), logs as (
  insert into request_logs (id, user_id, key_id, model, gateway, protocol, stream, status, error_code,
    input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_micros,
    usage_source, latency_ms, created_at, models, ledger_entry_id, fault, attempts)
  select "requestId", "userId", "keyId", model, gateway, protocol, stream, status, "errorCode",
    in_t, out_t, cr_t, cw_t, rs_t, cost_m, "usageSource", round("latencyMs")::int, at_ts, chain, entry_id, fault, attempts from input
  on conflict (id, created_at) do nothing
  returning user_id, key_id, model, gateway, status, fault, cost_micros, input_tokens, output_tokens, cache_read_tokens,
    cache_write_tokens, latency_ms, created_at, ledger_entry_id, (created_at at time zone 'UTC')::date as day
), daily as (
  insert into request_daily as d select day, user_id, model, coalesce(gateway, ''), count(*), count(*) filter (where fault is not null),
    sum(cost_micros), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(cache_write_tokens)
  from logs group by 1, 2, 3, 4 order by 1, 2, 3, 4
  on conflict (day, user_id, model, gateway) do update set calls = d.calls + excluded.calls, errors = d.errors + excluded.errors,
    cost_micros = d.cost_micros + excluded.cost_micros, input_tokens = d.input_tokens + excluded.input_tokens,
    output_tokens = d.output_tokens + excluded.output_tokens, cache_read_tokens = d.cache_read_tokens + excluded.cache_read_tokens,
    cache_write_tokens = d.cache_write_tokens + excluded.cache_write_tokens
), latency as (
  insert into latency_daily as l select day, model, latency_bucket(latency_ms), count(*) from logs group by 1, 2, 3 order by 1, 2, 3
  on conflict (day, model, bucket) do update set calls = l.calls + excluded.calls
), entries as (
  insert into ledger_entries (id, user_id, kind, status, amount_micros, method, reference, meta, created_at, completed_at)
  select ledger_entry_id, user_id, 'usage', 'completed', -sum(cost_micros), 'api', 'usage:' || ${token}::text || ':' || user_id,
    jsonb_build_object('calls', count(*), 'from', min(created_at), 'to', max(created_at)), now(), now()
  from logs where ledger_entry_id is not null group by ledger_entry_id, user_id
  returning user_id, amount_micros, (meta->>'calls')::int as calls
), balances as (
  update accounts a set balance_micros = a.balance_micros + d.delta, updated_at = now()
  from (select user_id, sum(amount_micros) as delta from entries group by user_id) d
  where a.user_id = d.user_id
), keys as (
  update api_keys k set spent_micros = k.spent_micros + coalesce(d.spent, 0),
    last_used_at = greatest(k.last_used_at, u.last_at)
  from (select "keyId" as key_id, max(at_ts) as last_at from input group by "keyId") u
  left join (select key_id, sum(cost_micros) as spent from logs where cost_micros > 0 group by key_id) d using (key_id)
  where k.id = u.key_id
)
select coalesce(sum(calls), 0)::int as inserted from entries`,
  )
  return Number(rows[0]?.inserted ?? 0)
}
