// What observability adds to one request, measured in isolation (the full benchmark's RPS is
// far noisier than a few µs): the exact hook sequence of an answered JSON call — observer,
// model resolved, admission span, admit round trip, reservation, one upstream attempt, first
// byte, settlement, settle round trip, end — against the real metric set (hot-metrics.ts in a
// prom-client Registry), with tracing off (the no-op tracer). `bun bench/metrics-cost.ts`;
// `bun run bench` prints it too.
import type { Route } from '../src/core/gateway.ts'
import { silentLogger } from '../src/lib/log.ts'
import { DEFAULT_POLICY } from '../src/routing/policy.ts'
import { CallObserver } from '../src/observability/call-observer.ts'
import { Metrics } from '../src/observability/telemetry.ts'
import { noopTracer } from '../src/observability/tracing.ts'

const ROUTE: Route = {
  gateway: {
    id: 'bench',
    protocol: 'openai-chat',
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: undefined,
    timeoutMs: 1_000,
    enabled: true,
    policy: DEFAULT_POLICY,
  },
  upstreamModel: 'bench-model',
}
const USAGE = { inputTokens: 12, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }
const HEADERS = new Headers()
const answer = () => Promise.resolve(1)

async function oneCall(metrics: Metrics): Promise<void> {
  const t0 = performance.now()
  const obs = new CallObserver(metrics, noopTracer, silentLogger, 'chat', HEADERS, 'req_bench', t0)
  obs.resolved('bench/chat', 'bench', false)
  await obs.admission(
    (async () => {
      obs.storeTrip('admit', t0, true)
      obs.reserve(1234n)
    })(),
  )
  await obs.attempt(ROUTE, 'bench/model', answer)
  const answeredAt = performance.now()
  obs.settled({
    usage: USAGE,
    costMicros: 38n,
    gateway: 'bench',
    tripStarted: t0,
    trip: Promise.resolve({ outcome: 'applied', answeredAt }),
  })
  obs.firstByte()
  obs.end(200, null, null)
}

/** The same awaits without any observation: what is subtracted. */
async function bareCall(): Promise<void> {
  performance.now()
  await (async () => {})()
  await answer()
}

/** CPU time (user + system) per call: on a shared machine, time the process is preempted is not counted. */
async function perCallNs(fn: () => Promise<void>, n: number): Promise<number> {
  const t = process.cpuUsage()
  for (let i = 0; i < n; i++) await fn()
  const used = process.cpuUsage(t)
  return ((used.user + used.system) * 1000) / n
}

/** Median over rounds of (observed − bare) CPU ns per call; `rounds` sorted ascending. */
export async function measureMetricsCost(rounds = 7, n = 100_000): Promise<{ ns: number; rounds: number[] }> {
  const metrics = new Metrics({ processMetrics: false })
  await perCallNs(() => oneCall(metrics), n / 10)
  await perCallNs(bareCall, n / 10)
  const diffs: number[] = []
  for (let r = 0; r < rounds; r++) diffs.push((await perCallNs(() => oneCall(metrics), n)) - (await perCallNs(bareCall, n)))
  diffs.sort((a, b) => a - b)
  return { ns: diffs[Math.floor(diffs.length / 2)]!, rounds: diffs }
}

if (import.meta.main) {
  const { ns, rounds } = await measureMetricsCost()
  console.log(
    `observability cost per request (metrics on, tracing off): ${(ns / 1000).toFixed(2)} µs CPU median; rounds ${rounds.map((x) => (x / 1000).toFixed(2)).join(', ')} µs; target ≤ 3 µs`,
  )
}
