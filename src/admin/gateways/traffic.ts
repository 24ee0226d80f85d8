// Calls, errors and median latency per gateway and route (gateway + public model) over the last
// 5 and 60 minutes, from request_logs (docs/operators.md "Models and gateways"). The window is
// pruned to the current partitions and read through request_logs_created_idx. Each upstream
// attempt counts on its own route: a call whose attempts all succeeded at once is one call on the
// route logged; a call with a failed attempt carries every attempt (request_logs.attempts), so a
// route that failed and was left counts its failures though another route answered. An attempt
// is an error when it failed, or when it answered and the call then failed on the upstream's side
// (mid-stream) or Tollgate's (core/call-end.ts faultOf) — never the client's: an attempt the
// caller's end stopped (client gone, idle, a drain) is not an error. Records reach
// request_logs through the ledger writer, so the view lags by its lag.
import { sql } from 'drizzle-orm'
import { CALLER_END_CODES } from '../../core/call-end.ts'
import type { Db } from '../../db/client.ts'

export interface Window {
  calls: number
  errors: number
  /** errors ÷ calls, 4 decimals; null without calls. */
  errorRate: number | null
  p50Ms: number | null
}

export interface Traffic {
  gateway: string
  model: string | null
  last5m: Window
  last60m: Window
}

type Row = {
  gateway: string
  model: string | null
  c5: number
  e5: number
  p5: number | null
  c60: number
  e60: number
  p60: number | null
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]

const window = (calls: number, errors: number, p50: number | null): Window => ({
  calls,
  errors,
  errorRate: calls === 0 ? null : Math.round((errors / calls) * 10_000) / 10_000,
  p50Ms: p50 === null ? null : Math.round(p50),
})

/** One row per gateway (model null) and one per gateway and model, over the last hour. */
export async function recentTraffic(db: Db, nowMs: number): Promise<Traffic[]> {
  // As text: postgres-js does not take a Date inside a raw statement.
  const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`
  const since60 = at(nowMs - 3_600_000)
  const since5 = at(nowMs - 300_000)
  const result = await db.execute(sql`
with calls as (
  select created_at, gateway, model, fault, latency_ms, attempts from request_logs
  where created_at >= ${since60} and created_at <= ${at(nowMs)} and (gateway is not null or attempts is not null)
), tries as (
  select created_at, gateway, model, fault is not null as failed, latency_ms as ms from calls where attempts is null
  union all
  select c.created_at, a->>'gateway', a->>'model', a->>'outcome' not in ('ok', ${sql.join(
    CALLER_END_CODES.map((c) => sql`${c}`),
    sql`, `,
  )}) or c.fault is not null,
    case when a->>'outcome' = 'ok' then c.latency_ms else (a->>'ms')::int end
  from calls c cross join lateral jsonb_array_elements(c.attempts) a where c.attempts is not null
)
select gateway, model,
  count(*) filter (where created_at >= ${since5})::int as c5,
  count(*) filter (where created_at >= ${since5} and failed)::int as e5,
  percentile_cont(0.5) within group (order by ms) filter (where created_at >= ${since5}) as p5,
  count(*)::int as c60,
  count(*) filter (where failed)::int as e60,
  percentile_cont(0.5) within group (order by ms) as p60
from tries
group by grouping sets ((gateway), (gateway, model))`)
  return rowsOf<Row>(result).map((r) => ({
    gateway: r.gateway,
    model: r.model,
    last5m: window(Number(r.c5), Number(r.e5), r.p5 === null ? null : Number(r.p5)),
    last60m: window(Number(r.c60), Number(r.e60), r.p60 === null ? null : Number(r.p60)),
  }))
}
