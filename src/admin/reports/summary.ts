// GET /api/admin/reports/summary (docs/operators.md "Reports"): for a period, top-ups (revenue),
// refunds and adjustments, usage billed, what the upstreams charged and the margin (null when any
// route used lacks `cost` prices: unknown, not zero), calls and errors, per model p50/p95
// latency, and the top users and models. Money in USD with 6 decimals, computed in micro-USD.
import type { Db } from '../../db/client.ts'
import { formatUsd } from '../../lib/money.ts'
import { percentileMs } from './latency.ts'
import type { Period } from './period.ts'
import { latencyBuckets, moneyByDay, routeCosts, topUsers, usageByRoute } from './queries.ts'
import { sumKnown, upstreamCostMicros } from './upstream-cost.ts'

const TOP = 10
export const usd = (micros: bigint | null) => (micros === null ? null : Number(formatUsd(micros)))
const rate = (errors: bigint, calls: bigint) => (calls === 0n ? null : Number((errors * 10_000n) / calls) / 10_000)

type ModelLine = { model: string; calls: bigint; errors: bigint; usage: bigint; upstream: (bigint | null)[] }

export async function summaryReport(db: Db, p: Period) {
  const [routes, users, latency, money, costs] = await Promise.all([
    usageByRoute(db, p),
    topUsers(db, p, TOP),
    latencyBuckets(db, p),
    moneyByDay(db, p),
    routeCosts(db),
  ])
  const byModel = new Map<string, ModelLine>()
  for (const r of routes) {
    const line = byModel.get(r.model) ?? { model: r.model, calls: 0n, errors: 0n, usage: 0n, upstream: [] }
    line.calls += r.calls
    line.errors += r.errors
    line.usage += r.usage
    // A call that used no tokens costs nothing upstream, whatever the route's prices.
    const spent = r.tokens.input + r.tokens.output + r.tokens.cacheRead + r.tokens.cacheWrite > 0n
    line.upstream.push(spent ? upstreamCostMicros(r.tokens, costs.get(`${r.model}\n${r.gateway}`)) : 0n)
    byModel.set(r.model, line)
  }
  const models = [...byModel.values()].map((m) => {
    const upstream = sumKnown(m.upstream)
    const buckets = latency.filter((l) => l.model === m.model)
    return {
      model: m.model,
      calls: Number(m.calls),
      errors: Number(m.errors),
      errorRate: rate(m.errors, m.calls),
      usage: usd(m.usage),
      upstreamCost: usd(upstream),
      margin: usd(upstream === null ? null : m.usage - upstream),
      p50Ms: percentileMs(buckets, 0.5),
      p95Ms: percentileMs(buckets, 0.95),
      usageMicros: m.usage,
    }
  })
  const total = (kind: string) => money.filter((m) => m.kind === kind).reduce((n, m) => n + m.amount, 0n)
  const count = (kind: string) => money.filter((m) => m.kind === kind).reduce((n, m) => n + m.count, 0)
  const usage = [...byModel.values()].reduce((n, m) => n + m.usage, 0n)
  const calls = [...byModel.values()].reduce((n, m) => n + m.calls, 0n)
  const errors = [...byModel.values()].reduce((n, m) => n + m.errors, 0n)
  const upstream = sumKnown([...byModel.values()].flatMap((m) => m.upstream))
  return {
    from: p.from,
    to: p.to,
    topups: { count: count('topup'), amount: usd(total('topup')) },
    refunds: { count: count('refund'), amount: usd(total('refund')) },
    adjustments: { count: count('adjustment'), amount: usd(total('adjustment')) },
    usage: usd(usage),
    upstreamCost: usd(upstream),
    margin: usd(upstream === null ? null : usage - upstream),
    calls: Number(calls),
    errors: Number(errors),
    errorRate: rate(errors, calls),
    models: models
      .sort((a, b) => (b.usageMicros > a.usageMicros ? 1 : b.usageMicros < a.usageMicros ? -1 : a.model.localeCompare(b.model)))
      .map(({ usageMicros: _, ...m }) => m),
    topUsers: users.map((u) => ({ userId: u.userId, email: u.email, calls: Number(u.calls), usage: usd(u.usage) })),
  }
}
