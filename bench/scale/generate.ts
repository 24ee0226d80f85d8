// Generates a year of history with SQL only (generate_series), for the table-scale benchmark:
// USERS users with 3 keys each; ROWS request logs and ROWS ledger entries spread over 365 days.
// One "whale" user (usr_0) owns 10 % of all rows, so its pages are the hardest case; the rest
// share the remainder evenly. Ledger: ~97.8 % usage, 2 % top-ups (a tenth of them pending),
// 0.2 % refunds of usage entries (the whale's refund its own). Rows go in chunks so progress shows on a slow machine.
import type { Sql } from 'postgres'

export const MODELS = 20

export async function generate(sql: Sql, rows: number, users: number, log: (s: string) => void): Promise<void> {
  await sql`set synchronous_commit = off`
  // Every month the data spans (and this one), so no row lands in the default partition.
  await sql`select request_logs_ensure_partition(m) from generate_series(now() - interval '366 days', now(), interval '1 month') m`
  await sql`select request_logs_ensure_partition(now() - interval '366 days')`
  await sql`insert into users (id, email) select 'usr_' || u, 'u' || u || '@bench.local' from generate_series(0, ${users - 1}) u`
  await sql`insert into accounts (user_id, balance_micros) select 'usr_' || u, 1000000000 from generate_series(0, ${users - 1}) u`
  await sql`insert into api_keys (id, user_id, key_hash, prefix) select 'key_' || u || '_' || k, 'usr_' || u, md5(u || ':' || k), 'sk-b' from generate_series(0, ${users - 1}) u, generate_series(0, 2) k`
  const CHUNK = 1_000_000
  // i → user: every 10th row is the whale's; others spread over users 1..n-1 by a hash of i.
  const who = (i: string) => `case when ${i} % 10 = 0 then 0 else 1 + (hashint4(${i}::int) & 2147483647) % ${users - 1} end`
  for (let lo = 1; lo <= rows; lo += CHUNK) {
    const hi = Math.min(rows, lo + CHUNK - 1)
    const t0 = performance.now()
    await sql.unsafe(`
      insert into request_logs (id, user_id, key_id, model, gateway, protocol, stream, status, error_code, input_tokens, output_tokens,
        cost_micros, usage_source, latency_ms, created_at)
      select 'req_' || i, 'usr_' || u, 'key_' || u || '_' || (i % 3), 'acme/model-' || (i % ${MODELS}), 'gw-a', 'chat', i % 4 = 0,
        case when i % 50 = 0 then 429 else 200 end, case when i % 50 = 0 then 'RATE_LIMITED' end, 500 + i % 1000, 100 + i % 500,
        i % 1000, 'upstream', 200 + i % 3000, now() - (hashint4(i::int + 7) & 2147483647) / 2147483647.0 * interval '365 days'
      from (select i, ${who('i')} as u from generate_series(${lo}, ${hi}) i) s`)
    const t1 = performance.now()
    await sql.unsafe(`
      insert into ledger_entries (id, user_id, kind, status, amount_micros, method, reference, key_id, request_id, meta, created_at, completed_at)
      select 'txn_' || i, 'usr_' || u,
        case when i % 1000 in (50, 57) then 'refund' when i % 100 in (30, 33) then 'topup' else 'usage' end,
        case when i % 1000 in (30, 33) then 'pending' else 'completed' end,
        case when i % 1000 in (50, 57) then 500 when i % 100 in (30, 33) then 10000000 else -(i % 1000) - 1 end,
        case when i % 100 in (30, 33) then 'stripe' else 'api' end,
        'ref:' || i, 'key_' || u || '_' || (i % 3), 'req_' || i,
        case when i % 1000 in (50, 57) then jsonb_build_object('refundOf', 'txn_' || (i - 10)) else jsonb_build_object('model', 'acme/model-' || (i % ${MODELS})) end,
        c, c
      from (select i, ${who('i')} as u, now() - (hashint4(i::int + 7) & 2147483647) / 2147483647.0 * interval '365 days' as c
            from generate_series(${lo}, ${hi}) i) s`)
    log(`  rows ${lo}–${hi}: request_logs ${((t1 - t0) / 1000).toFixed(1)} s, ledger ${((performance.now() - t1) / 1000).toFixed(1)} s`)
  }
  await sql`analyze`
}
