// Spend per UTC day and model over the last `days` days, from request logs (pure; the overview
// chart draws it). Logs carry each call's billed cost, so the sum is what the ledger charged.
export interface SpendLog {
  model: string
  cost: number
  createdAt: string
}

export interface DailySpend {
  days: string[]
  models: string[]
  /** cost[model][dayIndex], in USD. */
  cost: Record<string, number[]>
  /** Per-day totals, and the largest of them (the chart's scale). */
  totals: number[]
  max: number
  total: number
}

/** The `days` UTC dates ending with the one `now` falls on, oldest first. */
export function lastDays(days: number, now: Date): string[] {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return Array.from({ length: days }, (_, i) => new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10))
}

export function dailySpend(logs: SpendLog[], days: number, now: Date): DailySpend {
  const axis = lastDays(days, now)
  const index = new Map(axis.map((d, i) => [d, i]))
  const cost: Record<string, number[]> = {}
  // Sum in micro-USD integers so many small charges add up exactly.
  const micros: Record<string, number[]> = {}
  for (const l of logs) {
    const i = index.get(l.createdAt.slice(0, 10))
    if (i === undefined || !(l.cost > 0)) continue
    const row = (micros[l.model] ??= new Array<number>(days).fill(0))
    row[i] = row[i]! + Math.round(l.cost * 1e6)
  }
  const models = Object.keys(micros).sort((a, b) => sum(micros[b]!) - sum(micros[a]!) || a.localeCompare(b))
  for (const m of models) cost[m] = micros[m]!.map((v) => v / 1e6)
  const totalsMicros = axis.map((_, i) => models.reduce((s, m) => s + micros[m]![i]!, 0))
  return {
    days: axis,
    models,
    cost,
    totals: totalsMicros.map((v) => v / 1e6),
    max: Math.max(0, ...totalsMicros) / 1e6,
    total: sum(totalsMicros) / 1e6,
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
