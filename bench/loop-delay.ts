// Event-loop delay of the system under test, read from outside: Tollgate's GET /metrics carries
// prom-client's default process metrics, whose `nodejs_eventloop_lag_{p50,p99,max}_seconds`
// come from `perf_hooks.monitorEventLoopDelay` (Bun implements it; resolution 10 ms) and are
// reset by every scrape. So one scrape opens a window and the next one reads it.

export interface LoopDelay {
  /** Milliseconds a timer fired late, over the window. NaN when /metrics does not carry them. */
  p50: number
  p99: number
  max: number
}

/** The gauge values (seconds) of one Prometheus text exposition, by metric name. */
export function parseGauges(text: string, names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const line of text.split('\n')) {
    const sp = line.indexOf(' ')
    if (sp < 0 || line.startsWith('#')) continue
    const name = line.slice(0, sp)
    if (names.includes(name)) out[name] = Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return out
}

const NAMES = ['nodejs_eventloop_lag_p50_seconds', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_eventloop_lag_max_seconds'] as const

async function scrape(metricsUrl: string): Promise<LoopDelay> {
  const g = parseGauges(await (await fetch(metricsUrl)).text(), NAMES)
  const ms = (name: string) => (g[name] ?? NaN) * 1000
  return { p50: ms(NAMES[0]), p99: ms(NAMES[1]), max: ms(NAMES[2]) }
}

/**
 * Starts a window now; each call of the returned function ends the current window, gives its
 * delay and starts the next one.
 */
export async function loopDelayMeter(tgUrl: string): Promise<() => Promise<LoopDelay>> {
  const url = `${tgUrl}/metrics`
  await scrape(url)
  return () => scrape(url)
}

/** Runs `work` inside one window. */
export async function withLoopDelay<T>(tgUrl: string, work: () => Promise<T>): Promise<[T, LoopDelay]> {
  const read = await loopDelayMeter(tgUrl)
  const result = await work()
  return [result, await read()]
}

/** "p50 / p99 / max" in ms, or n/a. */
export const fmtDelay = (d: LoopDelay) => (Number.isNaN(d.p99) ? 'n/a' : `${d.p50.toFixed(2)} / ${d.p99.toFixed(2)} / ${d.max.toFixed(1)}`)
