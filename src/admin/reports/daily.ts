// GET /api/admin/reports/daily (docs/operators.md "Reports"): one row per UTC day of the period,
// every day present (zeros on a quiet day), for the revenue and usage chart.
import type { Db } from '../../db/client.ts'
import { daysOf, type Period } from './period.ts'
import { moneyByDay, usageByDay } from './queries.ts'
import { usd } from './summary.ts'

export async function dailyReport(db: Db, p: Period) {
  const [usage, money] = await Promise.all([usageByDay(db, p), moneyByDay(db, p)])
  const items = daysOf(p).map((day) => {
    const u = usage.find((x) => x.day === day)
    const amount = (kind: string) => money.filter((m) => m.day === day && m.kind === kind).reduce((n, m) => n + m.amount, 0n)
    return {
      id: day,
      day,
      topups: usd(amount('topup')),
      refunds: usd(amount('refund')),
      adjustments: usd(amount('adjustment')),
      usage: usd(u?.usage ?? 0n),
      calls: Number(u?.calls ?? 0n),
      errors: Number(u?.errors ?? 0n),
    }
  })
  return { from: p.from, to: p.to, items }
}
