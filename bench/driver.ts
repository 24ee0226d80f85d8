// Load generation for the benchmark: sequential latency (concurrency 1) and closed-loop
// saturation, bounded in count and time, loopback only.
import { quantile } from './stats.ts'

export interface Target {
  name: string
  url: string
  headers: Record<string, string>
  model: string
  /** A fixed request body (the embeddings part); a chat body for `model` otherwise. */
  body?: string
}

export interface LatencyResult {
  p50: number
  p99: number
  ttfbP50: number
  ttfbP99: number
}

export function body(model: string, stream: boolean): string {
  return JSON.stringify({ model, stream, max_tokens: 50, messages: [{ role: 'user', content: 'Hello, benchmark!' }] })
}

/** One request; returns [total ms, time-to-first-body-byte ms, body text]. Throws on a non-200 answer. */
export async function once(t: Target, stream: boolean, keepText: boolean): Promise<[number, number, string]> {
  const r = await call(t, stream, keepText)
  if (r.status !== 200) throw new Error(`${t.name}: HTTP ${r.status} ${r.text.slice(0, 200)}`)
  return [r.ms, r.ttfb, r.text]
}

interface Answer {
  status: number
  ms: number
  ttfb: number
  text: string
}

/** One request read to its end; `signal` cuts it (the connection closes mid-call). */
async function call(t: Target, stream: boolean, keepText: boolean, signal?: AbortSignal): Promise<Answer> {
  const start = performance.now()
  const res = await fetch(t.url, { method: 'POST', headers: t.headers, body: t.body ?? body(t.model, stream), signal })
  const reader = res.body!.getReader()
  let ttfb = -1
  let text = ''
  const dec = new TextDecoder()
  const keep = keepText || res.status !== 200
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    if (ttfb < 0) ttfb = performance.now() - start
    if (keep) text += dec.decode(value, { stream: true })
  }
  return { status: res.status, ms: performance.now() - start, ttfb, text }
}

export async function latency(t: Target, stream: boolean, n: number): Promise<LatencyResult> {
  const totals: number[] = []
  const ttfbs: number[] = []
  for (let i = 0; i < n; i++) {
    const [total, ttfb] = await once(t, stream, false)
    totals.push(total)
    ttfbs.push(ttfb)
  }
  totals.sort((a, b) => a - b)
  ttfbs.sort((a, b) => a - b)
  return { p50: quantile(totals, 0.5), p99: quantile(totals, 0.99), ttfbP50: quantile(ttfbs, 0.5), ttfbP99: quantile(ttfbs, 0.99) }
}

/** CPU time (µs) used so far by a process: utime + stime from /proc/<pid>/stat. */
export async function cpuMicros(pid: number): Promise<number> {
  const stat = await Bun.file(`/proc/${pid}/stat`).text()
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12]) // utime, stime (fields 14, 15)
  return (ticks * 1_000_000) / 100 // CLK_TCK = 100 on Linux
}

export interface LoadResult {
  rps: number
  cpuUsPerReq: number
  completed: number
  /** Latency of the run's calls, ms (each connection waits for its call: closed loop). */
  p50: number
  /** Streams whose body had the usage chunk (and, when checked, the svc chunk and [DONE]). */
  checked: { ok: number; total: number }
  /** Answers other than 2xx, and the first one's status and text. */
  failed: { count: number; first?: string }
  /** Calls in flight when the run ended: cut, their connections closed mid-call. */
  cut: number
}

/**
 * A closed loop of `conns` connections for `seconds`. When the time is up, the calls still in
 * flight are cut (their connections close mid-call, as a load balancer's or a client's would):
 * a gateway must take that without a single failed answer, then or in the runs after.
 */
export async function saturate(
  t: Target,
  stream: boolean,
  conns: number,
  seconds: number,
  sutPid: number,
  check?: (text: string) => boolean,
): Promise<LoadResult> {
  const stop = new AbortController()
  let completed = 0
  let cut = 0
  const totals: number[] = []
  const checked = { ok: 0, total: 0 }
  const failed: LoadResult['failed'] = { count: 0 }
  const cpu0 = await cpuMicros(sutPid)
  const t0 = performance.now()
  const timer = setTimeout(() => stop.abort(), seconds * 1000)
  let t1 = 0
  await Promise.all(
    Array.from({ length: conns }, async () => {
      while (!stop.signal.aborted) {
        const r = await call(t, stream, check !== undefined, stop.signal).catch((e: unknown) =>
          stop.signal.aborted ? undefined : String(e),
        )
        if (r === undefined) {
          cut++
          break
        }
        if (typeof r === 'string' || r.status < 200 || r.status > 299) {
          failed.count++
          failed.first ??= typeof r === 'string' ? r : `HTTP ${r.status} ${r.text.slice(0, 200)}`
          continue
        }
        completed++
        t1 = performance.now()
        totals.push(r.ms)
        if (check) {
          checked.total++
          if (check(r.text)) checked.ok++
        }
      }
    }),
  )
  clearTimeout(timer)
  const elapsed = (t1 - t0) / 1000
  const cpu = (await cpuMicros(sutPid)) - cpu0
  totals.sort((a, b) => a - b)
  return { rps: completed / elapsed, cpuUsPerReq: cpu / completed, completed, p50: quantile(totals, 0.5), checked, failed, cut }
}
