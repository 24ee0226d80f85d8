// Many open streams at once (docs/benchmarks.md): N streaming calls to a slow upstream
// (`bench/chat-slow`: one delta a second for ~30 s) held open together through Tollgate, while
// short non-stream calls from another key measure what other clients see. Reports Tollgate's
// peak RSS, how many streams arrived whole, and the other clients' latency with and without
// the streams.
import { body, latency, type LatencyResult, type Target } from './driver.ts'
import { streamOk, type Stack } from './harness.ts'
import { loopDelayMeter, type LoopDelay } from './sut-metrics.ts'
import { mem, resetPeak, sampleRss } from './proc-mem.ts'

export interface StreamsConfig {
  streams: number
  deltas: number
  intervalMs: number
  /** Time over which the streams are opened (a ramp, not one burst of connects). */
  rampMs: number
  /** Sequential non-stream calls of the other client, idle and under load. */
  probes: number
}

export interface StreamsResult {
  streams: number
  /** Streams with every delta, the usage and svc chunks and [DONE]. */
  whole: number
  errors: string[]
  /** Most streams open at once, as the client and as the upstream saw them. */
  peakOpen: number
  peakUpstreamOpen: number
  /** From the first connect until every stream had its first byte (ms). */
  allOpenMs: number
  seconds: number
  /** MB: before the streams, when all were open, the largest sample, and VmHWM (reset before). */
  rss: { before: number; allOpen: number; peak: number; hwm: number }
  other: { idle: LatencyResult; loaded: LatencyResult }
  /** Event-loop delay while the other client ran idle, while the streams opened, while all were open. */
  loop: { idle: LoopDelay; opening: LoopDelay; open: LoopDelay }
  /** One GET /metrics at the end of the "all open" window: how long it took, and the loop delay around it. */
  scrape: { ms: number; loop: LoopDelay }
}

export async function runStreams(stack: Stack, cfg: StreamsConfig): Promise<StreamsResult> {
  const pid = stack.pids.tollgate
  const other: Target = {
    ...stack.targets.tollgate,
    headers: { ...stack.targets.tollgate.headers, authorization: `Bearer ${await stack.newKey()}` },
  }
  const slow: Target = {
    ...stack.targets.tollgate,
    model: 'bench/chat-slow',
    headers: { ...stack.targets.tollgate.headers, authorization: `Bearer ${await stack.newKey()}` },
  }

  console.error(`streams: other client idle (${cfg.probes} calls after as many to warm up)…`)
  await latency(other, false, cfg.probes)
  let read = await loopDelayMeter(stack.loopUrl)
  const idle = await latency(other, false, cfg.probes)
  const idleLoop = await read()

  await fetch(`${stack.upstream}/stats`) // resets the upstream's peak
  await resetPeak(pid)
  const before = (await mem(pid)).rss
  const sampler = sampleRss(pid)
  let open = 0
  let peakOpen = 0
  let firstBytes = 0
  let allOpen!: () => void
  const allOpened = new Promise<void>((resolve) => (allOpen = resolve))
  const errors: string[] = []
  let whole = 0
  const payload = body(slow.model, true)
  const dec = new TextDecoder()

  const one = async () => {
    let counted = false
    try {
      const res = await fetch(slow.url, { method: 'POST', headers: slow.headers, body: payload })
      const reader = res.body!.getReader()
      let text = ''
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        if (!counted) {
          counted = true
          peakOpen = Math.max(peakOpen, ++open)
          if (++firstBytes === cfg.streams) allOpen()
        }
        text += dec.decode(value, { stream: true })
      }
      const deltas = text.split('"content":"tok').length - 1
      if (res.status === 200 && deltas === cfg.deltas && streamOk(text)) whole++
      else errors.push(`HTTP ${res.status}, ${deltas} deltas: ${text.slice(-200)}`)
    } catch (e) {
      errors.push(String(e))
    } finally {
      if (counted) open--
      else if (++firstBytes === cfg.streams) allOpen()
    }
  }

  console.error(`streams: opening ${cfg.streams} streams over ${cfg.rampMs} ms…`)
  read = await loopDelayMeter(stack.loopUrl)
  const t0 = performance.now()
  const running: Promise<void>[] = []
  const batches = Math.max(1, Math.round(cfg.rampMs / 20))
  for (let b = 0; b < batches; b++) {
    const upTo = Math.round(((b + 1) * cfg.streams) / batches)
    while (running.length < upTo) running.push(one())
    await Bun.sleep(Math.max(0, t0 + ((b + 1) * cfg.rampMs) / batches - performance.now()))
  }
  await allOpened
  const allOpenMs = performance.now() - t0
  const openingLoop = await read()
  const rssAllOpen = (await mem(pid)).rss

  console.error(`streams: all open after ${allOpenMs.toFixed(0)} ms; other client under load…`)
  const loaded = await latency(other, false, cfg.probes)
  const upstream = (await (await fetch(`${stack.upstream}/stats`)).json()) as { peak: number }
  // The "all open" window lasts until shortly before the first stream ends.
  await Bun.sleep(Math.max(0, t0 + cfg.deltas * cfg.intervalMs - 500 - performance.now()))
  const openLoop = await read()
  // A Prometheus scrape while the streams are open (prom-client's process metrics read heap
  // statistics and /proc/self/fd, which grow with the open streams).
  const s0 = performance.now()
  await (await fetch(`${stack.tgUrl}/metrics`)).text()
  const scrape = { ms: performance.now() - s0, loop: await read() }

  await Promise.all(running)
  const seconds = (performance.now() - t0) / 1000
  const peak = await sampler.stop()
  const hwm = (await mem(pid)).hwm
  return {
    streams: cfg.streams,
    whole,
    errors,
    peakOpen,
    peakUpstreamOpen: upstream.peak,
    allOpenMs,
    seconds,
    rss: { before, allOpen: rssAllOpen, peak, hwm },
    other: { idle, loaded },
    loop: { idle: idleLoop, opening: openingLoop, open: openLoop },
    scrape,
  }
}
