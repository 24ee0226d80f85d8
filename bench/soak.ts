// The soak (docs/benchmarks.md): an open-loop load at a fixed rate — every fourth call a stream —
// for N minutes; per interval the achieved RPS, p50/p99 (from each call's scheduled start, so a
// stall is not hidden by the load generator waiting), Tollgate's RSS and event-loop delay; at
// the end the RSS slope (least squares over one RSS sample a second, MB/min) and the p99
// stability (max/min of the intervals' p99), both after the first interval (warm-up).
import { body, type Target } from './driver.ts'
import { streamOk, type Stack } from './harness.ts'
import { loopDelayMeter, type LoopDelay } from './sut-metrics.ts'
import { mem } from './proc-mem.ts'
import { quantile, slope } from './stats.ts'

export interface SoakConfig {
  rps: number
  minutes: number
  intervalSec: number
  /** Calls in flight beyond which a due call is not sent but counted as shed. */
  maxInFlight: number
}

export interface SoakInterval {
  /** End of the interval, minutes since the start. */
  atMin: number
  rps: number
  p50: number
  p99: number
  /** Mean of the interval's RSS samples (one a second), MB. */
  rssMb: number
  loop: LoopDelay
  /** Ledger records waiting in the outbox at the end of the interval (the writer keeping up). */
  outboxDepth: number
  errors: number
  shed: number
}

export interface SoakResult {
  intervals: SoakInterval[]
  /** RSS slope after the first interval (warm-up), MB/min. */
  rssSlope: number
  /** max/min of the p99 of the intervals after the first. */
  p99Stability: number
  errors: number
  shed: number
  firstError?: string
}

const STREAM_EVERY = 4

export async function runSoak(t: Target, stack: Stack, cfg: SoakConfig): Promise<SoakResult> {
  const pid = stack.pids.tollgate
  const payloads = [body(t.model, false), body(t.model, true)]
  const intervals: SoakInterval[] = []
  let window: number[] = []
  let errors = 0
  let shed = 0
  let totalShed = 0
  let windowErrors = 0
  let firstError: string | undefined
  let inFlight = 0

  const call = async (i: number, scheduled: number) => {
    inFlight++
    const stream = i % STREAM_EVERY === 0
    try {
      const res = await fetch(t.url, {
        method: 'POST',
        headers: t.headers,
        body: payloads[stream ? 1 : 0],
        signal: AbortSignal.timeout(30_000),
      })
      const text = await res.text()
      if (res.status !== 200 || (stream && !streamOk(text))) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`)
      window.push(performance.now() - scheduled)
    } catch (e) {
      windowErrors++
      firstError ??= String(e)
    } finally {
      inFlight--
    }
  }

  const read = await loopDelayMeter(stack.loopUrl)
  const t0 = performance.now()
  const end = t0 + cfg.minutes * 60_000
  // One RSS sample a second: single readings swing by tens of MB with the collector.
  const rss: { atMin: number; mb: number }[] = []
  const sampler = (async () => {
    while (performance.now() < end) {
      const m = await mem(pid).catch(() => undefined)
      if (!m) return
      const mb = m.rss
      rss.push({ atMin: (performance.now() - t0) / 60_000, mb })
      await Bun.sleep(1_000)
    }
  })()
  // The sender and the reporter are separate loops: reading RSS and /metrics must not delay sends.
  const pending = new Set<Promise<void>>()
  const sender = (async () => {
    let sent = 0
    for (let now = t0; now < end; now = performance.now()) {
      const due = Math.floor(((now - t0) / 1000) * cfg.rps)
      for (; sent < due; sent++) {
        if (inFlight >= cfg.maxInFlight) {
          shed++
          continue
        }
        const p = call(sent, t0 + (sent * 1000) / cfg.rps)
        pending.add(p)
        void p.finally(() => pending.delete(p))
      }
      await Bun.sleep(2)
    }
  })()
  let windowStart = t0
  for (let k = 1; windowStart < end - 1; k++) {
    await Bun.sleep(Math.max(0, Math.min(end, t0 + k * cfg.intervalSec * 1000) - performance.now()))
    const now = performance.now()
    const done = window.sort((a, b) => a - b)
    const [errs, shedNow] = [windowErrors, shed]
    window = []
    windowErrors = 0
    shed = 0
    const [loop, depth] = await Promise.all([read(), stack.outboxDepth()])
    const from = (windowStart - t0) / 60_000
    const inWindow = rss.filter((x) => x.atMin >= from).map((x) => x.mb)
    const r: SoakInterval = {
      atMin: (now - t0) / 60_000,
      rps: done.length / ((now - windowStart) / 1000),
      p50: quantile(done, 0.5),
      p99: quantile(done, 0.99),
      rssMb: inWindow.reduce((a, b) => a + b, 0) / inWindow.length,
      loop,
      outboxDepth: depth,
      errors: errs,
      shed: shedNow,
    }
    intervals.push(r)
    errors += errs
    totalShed += shedNow
    windowStart = now
    console.error(
      `soak: ${r.atMin.toFixed(1)} min, ${r.rps.toFixed(0)} RPS, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, RSS ${r.rssMb.toFixed(1)} MB, loop delay p99 ${r.loop.p99.toFixed(1)} ms, outbox ${r.outboxDepth}`,
    )
  }
  await sender
  await Promise.all(pending)
  errors += windowErrors
  totalShed += shed

  await sampler
  const warm = intervals.length >= 3 ? intervals[0]!.atMin : 0
  const steady = rss.filter((x) => x.atMin >= warm)
  const p99s = intervals.filter((r) => r.atMin > warm).map((r) => r.p99)
  return {
    intervals,
    rssSlope: slope(
      steady.map((x) => x.atMin),
      steady.map((x) => x.mb),
    ),
    p99Stability: Math.max(...p99s) / Math.min(...p99s),
    errors,
    shed: totalShed,
    firstError,
  }
}
