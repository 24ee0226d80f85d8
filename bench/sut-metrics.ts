// What Tollgate reports about itself, read from outside over GET /metrics:
// - event-loop delay: prom-client's default process metrics carry
//   `nodejs_eventloop_lag_{p50,p99,max}_seconds` from `perf_hooks.monitorEventLoopDelay` (Bun
//   implements it; resolution 10 ms), reset by every scrape — so one scrape opens a window and
//   the next one reads it;
// - the ledger outbox: records waiting for the writer and the oldest one's age.

export interface LoopDelay {
  /** Milliseconds a timer fired late, over the window. NaN when /metrics does not carry them. */
  p50: number
  p99: number
  max: number
}

export interface SutSample {
  loop: LoopDelay
  outboxDepth: number
  ledgerLagSeconds: number
}

/** The values of one Prometheus text exposition, by metric name (samples of a name summed). */
export function parseGauges(text: string, names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue
    const end = line.search(/[ {]/)
    if (end < 0) continue
    const name = line.slice(0, end)
    if (names.includes(name)) out[name] = (out[name] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return out
}

const NAMES = [
  'nodejs_eventloop_lag_p50_seconds',
  'nodejs_eventloop_lag_p99_seconds',
  'nodejs_eventloop_lag_max_seconds',
  'tollgate_outbox_depth',
  'tollgate_ledger_lag_seconds',
] as const

async function scrape(metricsUrl: string): Promise<SutSample> {
  const g = parseGauges(await (await fetch(metricsUrl)).text(), NAMES)
  const ms = (name: string) => (g[name] ?? NaN) * 1000
  return {
    loop: { p50: ms(NAMES[0]), p99: ms(NAMES[1]), max: ms(NAMES[2]) },
    outboxDepth: g[NAMES[3]] ?? NaN,
    ledgerLagSeconds: g[NAMES[4]] ?? NaN,
  }
}

/**
 * Starts a window now; each call of the returned function ends the current window, gives its
 * sample and starts the next one.
 */
export async function sutMeter(tgUrl: string): Promise<() => Promise<SutSample>> {
  const url = `${tgUrl}/metrics`
  await scrape(url)
  return () => scrape(url)
}

/** Runs `work` inside one window; gives the window's event-loop delay. */
export async function withLoopDelay<T>(tgUrl: string, work: () => Promise<T>): Promise<[T, LoopDelay]> {
  const read = await sutMeter(tgUrl)
  const result = await work()
  return [result, (await read()).loop]
}

/** "p50 / p99 / max" in ms, or n/a. */
export const fmtDelay = (d: LoopDelay) => (Number.isNaN(d.p99) ? 'n/a' : `${d.p50.toFixed(2)} / ${d.p99.toFixed(2)} / ${d.max.toFixed(1)}`)

/**
 * Waits until the ledger outbox is empty (the writer caught up with what earlier runs left), so
 * that a part starts from a quiet gateway; gives the seconds waited, or NaN at the time limit.
 */
export async function outboxDrained(tgUrl: string, limitMs = 120_000): Promise<number> {
  const t0 = performance.now()
  while (performance.now() - t0 < limitMs) {
    const depth = (await scrape(`${tgUrl}/metrics`)).outboxDepth
    if (!(depth > 0)) return (performance.now() - t0) / 1000
    await Bun.sleep(500)
  }
  return NaN
}
