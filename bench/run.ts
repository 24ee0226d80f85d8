// `bun run bench`: Tollgate's full path (Postgres + Redis) vs a bare Bun fetch proxy vs the fake
// upstream called directly, from one run (BENCHMARKING.md): added latency p50/p99 at
// concurrency 1, saturation RPS and CPU µs/request of the system under test, streaming
// time-to-first-byte, and usage+svc presence on every Tollgate stream. Rounds are interleaved
// (direct, bare, tollgate, …) and medians quoted. BENCH_QUICK=1 for a short run.
import postgres from 'postgres'
import { cpus } from 'node:os'
import { latency, median, saturate, type LatencyResult, type LoadResult, type Target } from './driver.ts'
import { measureMetricsCost } from './metrics-cost.ts'

const QUICK = process.env.BENCH_QUICK === '1'
const CFG = QUICK
  ? { rounds: 2, latencyN: 300, seconds: 2, conns: 64, warm: 200 }
  : { rounds: 3, latencyN: 1_500, seconds: 5, conns: 64, warm: 1_000 }
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'
const ADMIN = 'bench-admin-token-0123456789abcdef'
const ROOT = new URL('..', import.meta.url).pathname

// Pin: load generator + fake upstream on CPU 1, each system under test on CPU 0.
const taskset = Bun.which('taskset') && cpus().length >= 2
if (taskset && !process.env.BENCH_PINNED) {
  const child = Bun.spawn(['taskset', '-c', '1', process.execPath, import.meta.path], {
    env: { ...process.env, BENCH_PINNED: '1' },
    stdio: ['inherit', 'inherit', 'inherit'],
  })
  process.exit(await child.exited)
}
const pin = (cpu: number, cmd: string[]) => (taskset ? ['taskset', '-c', String(cpu), ...cmd] : cmd)

const children: Bun.Subprocess[] = []
let dropDb: (() => Promise<void>) | undefined
async function cleanup() {
  for (const c of children) c.kill('SIGKILL')
  await dropDb?.()
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)))

async function spawnReady(
  cmd: string[],
  env: Record<string, string>,
  ready: RegExp,
  from: 'stdout' | 'stderr',
): Promise<{ proc: Bun.Subprocess; match: RegExpExecArray }> {
  const proc = Bun.spawn(cmd, { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe', cwd: ROOT })
  children.push(proc)
  const reader = (from === 'stdout' ? proc.stdout : proc.stderr).getReader()
  const dec = new TextDecoder()
  let text = ''
  const timeout = setTimeout(() => proc.kill(), 30_000)
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`${cmd.join(' ')} exited before ready:\n${text}`)
    text += dec.decode(value)
    const m = ready.exec(text)
    if (m) {
      clearTimeout(timeout)
      // Keep draining so the child never blocks on a full pipe.
      void (async () => {
        for (;;) if ((await reader.read()).done) break
      })()
      return { proc, match: m }
    }
  }
}

async function main() {
  const fake = await spawnReady(pin(1, [process.execPath, 'bench/fake-upstream.ts', '0']), {}, /READY (\d+)/, 'stdout')
  const upstream = `http://127.0.0.1:${fake.match[1]}`
  const bare = await spawnReady(pin(0, [process.execPath, 'bench/bare-proxy.ts', '0', `${upstream}/v1`]), {}, /READY (\d+)/, 'stdout')

  const dbName = `tg_bench_${Date.now()}`
  const admin = postgres(PG, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${dbName}`)
  await admin.end()
  dropDb = async () => {
    const a = postgres(PG, { max: 1, onnotice: () => {} })
    await a.unsafe(`drop database if exists ${dbName} with (force)`)
    await a.end()
  }
  const dbUrl = new URL(PG)
  dbUrl.pathname = `/${dbName}`
  const catalogPath = `/tmp/tollgate-bench-catalog-${process.pid}.json`
  await Bun.write(
    catalogPath,
    JSON.stringify({
      gateways: [{ id: 'bench', protocol: 'openai-chat', baseUrl: `${upstream}/v1`, timeoutMs: 30_000 }],
      models: [
        {
          id: 'bench/chat',
          name: 'Bench',
          provider: 'bench',
          contextWindow: 128_000,
          capabilities: ['text'],
          pricing: { input: 0.15, output: 0.6 },
          routes: [{ gateway: 'bench', model: 'bench-model' }],
        },
        {
          id: 'bench/chat-20ms',
          name: 'Bench 20ms',
          provider: 'bench',
          contextWindow: 128_000,
          capabilities: ['text'],
          pricing: { input: 0.15, output: 0.6 },
          routes: [{ gateway: 'bench', model: 'bench-model-20ms' }],
        },
      ],
    }),
  )
  const tg = await spawnReady(
    pin(0, [process.execPath, 'src/index.ts']),
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL: REDIS,
      REDIS_PREFIX: `tgbench${process.pid}:`,
      CATALOG_FILE: catalogPath,
      ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: 'warn',
    },
    /tollgate listening on (http:\S+)/,
    'stdout',
  )
  const tgUrl = tg.match[1]!
  const adminHeaders = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }
  const user = (await (
    await fetch(`${tgUrl}/api/admin/users`, {
      method: 'POST',
      headers: adminHeaders,
      body: JSON.stringify({ email: 'bench@tollgate.local' }),
    })
  ).json()) as { id: string }
  await fetch(`${tgUrl}/api/admin/users/${user.id}/credits`, {
    method: 'POST',
    headers: adminHeaders,
    body: JSON.stringify({ amount: 10_000 }),
  })
  const { key } = (await (
    await fetch(`${tgUrl}/api/admin/keys`, {
      method: 'POST',
      headers: adminHeaders,
      body: JSON.stringify({ userId: user.id, rpm: 1_000_000 }),
    })
  ).json()) as { key: string }

  const json = { 'content-type': 'application/json' }
  const targets = {
    direct: { name: 'direct', url: `${upstream}/v1/chat/completions`, headers: json, model: 'bench-model' },
    bare: { name: 'bare proxy', url: `http://127.0.0.1:${bare.match[1]}/v1/chat/completions`, headers: json, model: 'bench-model' },
    tollgate: {
      name: 'tollgate',
      url: `${tgUrl}/v1/chat/completions`,
      headers: { ...json, authorization: `Bearer ${key}` },
      model: 'bench/chat',
    },
  } satisfies Record<string, Target>
  const pids = { direct: fake.proc.pid, bare: bare.proc.pid, tollgate: tg.proc.pid }
  const names = ['direct', 'bare', 'tollgate'] as const
  const streamOk = (text: string) => text.includes('"usage":{') && text.includes('"svc":{') && text.trimEnd().endsWith('data: [DONE]')

  console.error(`warming up (${QUICK ? 'quick' : 'full'} run)…`)
  for (const n of names) {
    await latency(targets[n], false, CFG.warm)
    await latency(targets[n], true, CFG.warm / 4)
  }

  const lat: Record<string, LatencyResult[]> = {}
  const load: Record<string, LoadResult[]> = {}
  for (let round = 0; round < CFG.rounds; round++) {
    console.error(`round ${round + 1}/${CFG.rounds}`)
    for (const stream of [false, true]) {
      for (const n of names) {
        const k = `${n}:${stream ? 'sse' : 'json'}`
        ;(lat[k] ??= []).push(await latency(targets[n], stream, stream ? CFG.latencyN / 3 : CFG.latencyN))
        ;(load[k] ??= []).push(
          await saturate(targets[n], stream, CFG.conns, CFG.seconds, pids[n], n === 'tollgate' && stream ? streamOk : undefined),
        )
      }
    }
    // A realistic upstream: 20 ms per answer, 16 connections.
    for (const n of ['direct', 'tollgate'] as const) {
      const t = { ...targets[n], model: n === 'direct' ? 'bench-model-20ms' : 'bench/chat-20ms' }
      ;(load[`${n}:20ms`] ??= []).push(await saturate(t, false, 16, CFG.seconds, pids[n]))
      ;(lat[`${n}:20ms`] ??= []).push(await latency(t, false, Math.floor(CFG.latencyN / 10)))
    }
  }

  const m = (k: string, f: (r: any) => number, from: Record<string, any[]>) => median(from[k]!.map(f))
  const fmt = (x: number, d = 2) => x.toFixed(d)
  const lines: string[] = []
  lines.push(
    `Tollgate benchmark — ${new Date().toISOString()} — ${QUICK ? 'quick' : 'full'} run, ${CFG.rounds} interleaved rounds, medians; ${taskset ? 'SUT pinned to CPU 0, load + fake upstream to CPU 1' : 'unpinned'}`,
  )
  lines.push('')
  lines.push(
    '| mode | target | RPS (64 conns) | CPU µs/req | p50 ms (c=1) | p99 ms (c=1) | added p50 | added p99 | TTFB p50 | added TTFB p50 |',
  )
  lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|')
  for (const mode of ['json', 'sse'] as const) {
    const d = `direct:${mode}`
    for (const n of names) {
      const k = `${n}:${mode}`
      const p50 = m(k, (r) => r.p50, lat)
      const p99 = m(k, (r) => r.p99, lat)
      const ttfb = m(k, (r) => r.ttfbP50, lat)
      lines.push(
        `| ${mode === 'json' ? 'non-stream' : 'stream'} | ${targets[n].name} | ${fmt(
          m(k, (r) => r.rps, load),
          0,
        )} | ${fmt(
          m(k, (r) => r.cpuUsPerReq, load),
          0,
        )} | ${fmt(p50, 3)} | ${fmt(p99, 3)} | ${n === 'direct' ? '—' : '+' + fmt(p50 - m(d, (r) => r.p50, lat), 3)} | ${n === 'direct' ? '—' : '+' + fmt(p99 - m(d, (r) => r.p99, lat), 3)} | ${fmt(ttfb, 3)} | ${n === 'direct' ? '—' : '+' + fmt(ttfb - m(d, (r) => r.ttfbP50, lat), 3)} |`,
      )
    }
  }
  const ratio = (mode: string) => m(`tollgate:${mode}`, (r) => r.rps, load) / m(`bare:${mode}`, (r) => r.rps, load)
  const added = (q: 'p50' | 'p99') => m('tollgate:json', (r) => r[q], lat) - m('direct:json', (r) => r[q], lat)
  const addedTtfb = m('tollgate:sse', (r) => r.ttfbP50, lat) - m('direct:sse', (r) => r.ttfbP50, lat)
  const checks = load['tollgate:sse']!.reduce((a, r) => ({ ok: a.ok + r.checked.ok, total: a.total + r.checked.total }), {
    ok: 0,
    total: 0,
  })
  lines.push('')
  lines.push(
    `Realistic upstream (20 ms, 16 conns): direct ${fmt(
      m('direct:20ms', (r) => r.rps, load),
      0,
    )} RPS, p50 ${fmt(
      m('direct:20ms', (r) => r.p50, lat),
      3,
    )} ms; tollgate ${fmt(
      m('tollgate:20ms', (r) => r.rps, load),
      0,
    )} RPS, p50 ${fmt(
      m('tollgate:20ms', (r) => r.p50, lat),
      3,
    )} ms`,
  )
  lines.push('')
  lines.push('| target | measured | goal | met |')
  lines.push('|---|--:|--:|:-:|')
  const row = (name: string, v: number, goal: string, ok: boolean, unit = '') =>
    lines.push(`| ${name} | ${fmt(v, unit === '×' ? 2 : 3)}${unit} | ${goal} | ${ok ? 'yes' : 'no'} |`)
  row('throughput vs bare proxy, non-stream', ratio('json'), '≥ 0.60×', ratio('json') >= 0.6, '×')
  row('throughput vs bare proxy, stream', ratio('sse'), '≥ 0.60×', ratio('sse') >= 0.6, '×')
  row('added p50 at c=1', added('p50'), '≤ +0.4 ms', added('p50') <= 0.4, ' ms')
  row('added p99 at c=1', added('p99'), '≤ +1.5 ms', added('p99') <= 1.5, ' ms')
  row('added stream TTFB p50', addedTtfb, '≤ +1 ms', addedTtfb <= 1, ' ms')
  lines.push(
    `| streams with usage + svc chunk + [DONE] | ${checks.ok}/${checks.total} | 100% | ${checks.ok === checks.total ? 'yes' : 'no'} |`,
  )
  // Observability (docs/observability.md): the hooks' cost per request, measured in isolation, and one scrape.
  const cost = await measureMetricsCost()
  row('metrics + tracing-off hooks per request', cost.ns / 1000, '≤ 3 µs', cost.ns <= 3_000, ' µs')
  const s0 = performance.now()
  const scraped = await (await fetch(`${tgUrl}/metrics`)).text()
  lines.push(
    '',
    `GET /metrics after the run: ${(performance.now() - s0).toFixed(1)} ms, ${scraped.length} bytes, tollgate_requests_total ${scraped
      .split('\n')
      .filter((l) => l.startsWith('tollgate_requests_total'))
      .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0)}`,
  )
  console.log(lines.join('\n'))
}

try {
  await main()
} finally {
  await cleanup()
}
