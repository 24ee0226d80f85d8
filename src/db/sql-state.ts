// The SQLSTATE of a database error: what tells a refused record (billing/dead-letters.ts), a
// collision (billing/ledger-batch.ts) or a concurrency abort (conflict-retry.ts) apart.

/** The SQLSTATE of a Postgres error, looked for through the causes drivers wrap it in. */
export function sqlState(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code
  }
  return undefined
}
