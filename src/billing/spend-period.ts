// Budgets that reset (docs/api.md "Key settings"): a key with `limitReset` counts its spend from
// the start of the current UTC period — the day, the ISO week (from Monday), or the month.

export type LimitReset = 'daily' | 'weekly' | 'monthly'
export const LIMIT_RESETS = ['daily', 'weekly', 'monthly'] as const satisfies readonly LimitReset[]

const DAY_MS = 86_400_000

/** The current period of `reset` at `nowMs`: its start (inclusive) and end (exclusive), epoch ms. */
export function spendPeriod(reset: LimitReset, nowMs: number): { startMs: number; endMs: number } {
  const now = new Date(nowMs)
  const y = now.getUTCFullYear()
  const m = now.getUTCMonth()
  const day = Date.UTC(y, m, now.getUTCDate())
  switch (reset) {
    case 'daily':
      return { startMs: day, endMs: day + DAY_MS }
    case 'weekly': {
      // getUTCDay: Sunday 0 … Saturday 6; the ISO week starts on Monday.
      const start = day - ((now.getUTCDay() + 6) % 7) * DAY_MS
      return { startMs: start, endMs: start + 7 * DAY_MS }
    }
    case 'monthly':
      return { startMs: Date.UTC(y, m, 1), endMs: Date.UTC(y, m + 1, 1) }
  }
}

/**
 * What the store counts a key's spend under: the key id for a lifetime limit, the key id and
 * the period's start for a limit that resets, so a new period starts from a fresh count.
 */
export function spendKey(keyId: string, reset: LimitReset | null, nowMs: number): string {
  return reset === null ? keyId : `${keyId}@${spendPeriod(reset, nowMs).startMs}`
}
