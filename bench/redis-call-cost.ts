// `bun bench/redis-call-cost.ts`: what Redis does per answered call, counted, not timed
// (docs/benchmarks.md "What one call costs each process"). On a redis-server of its own (port
// BENCH_PORT, default 6451; nothing else talks to it) the real store runs CALLS calls as the
// gateway makes them — an admission with its lease, a settlement with its record, the ledger
// writer's outbox reads and acknowledgements — in waves of WAVE calls (one turn's batch), and
// reports per call: the commands Redis ran (INFO commandstats, those inside scripts included),
// the bytes it read and wrote (INFO stats, the readings' own traffic taken off), and, under
// BENCH_CALLGRIND=1, the instructions it executed (valgrind's callgrind: deterministic, unlike
// its CPU time, which is shown too). BENCH_KEYS=limited gives every key a spend limit, a tpm and
// a cap on calls at once.
import Redis from 'ioredis'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { callRecord } from '../src/billing/outbox-record.ts'
import { createRedisStore } from '../src/store/redis.ts'
import type { AdmitInput, SettleInput } from '../src/store/types.ts'

const PORT = Number(process.env.BENCH_PORT ?? 6451)
const CALLS = Number(process.env.CALLS ?? 8_192)
const WAVE = Number(process.env.WAVE ?? 16)
/** Calls settled between two outbox drains (the writer's batches). */
const DRAIN_EVERY = 256
/** Accounts the calls cycle through: 1, as in `bun run bench` (one user, one key: one shard). */
const ACCOUNTS = Number(process.env.ACCOUNTS ?? 1)
const LIMITED = process.env.BENCH_KEYS === 'limited'
const CALLGRIND = process.env.BENCH_CALLGRIND === '1'

const dir = mkdtempSync(join(tmpdir(), 'tg-redis-cost-'))
const serverArgs = ['--port', String(PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir]
const server = Bun.spawn(
  CALLGRIND
    ? ['valgrind', '--tool=callgrind', `--callgrind-out-file=${dir}/cg.%p`, 'redis-server', ...serverArgs]
    : ['redis-server', ...serverArgs],
  { stdout: 'ignore', stderr: 'ignore' },
)
const raw = new Redis({ port: PORT, host: '127.0.0.1', retryStrategy: (n) => (n > 200 ? null : 50), maxRetriesPerRequest: null })
raw.on('error', () => {})
await raw.ping()

const id = (prefix: string, n: number) => `${prefix}_${n.toString(36).padStart(20, '0')}`
const user = (a: number) => id('usr', a)
const key = (a: number) => id('key', a)
const at = Date.UTC(2026, 10, 27, 12, 0, 0)
const usage = { inputTokens: 412, outputTokens: 96, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }
const call = (i: number, a: number) => ({
  requestId: id('req', i),
  principal: { userId: user(a), keyId: key(a) },
  model: 'openai/gpt-4o-mini',
  protocol: 'chat',
  stream: false,
  at,
})

function admission(i: number, a: number): AdmitInput {
  const abandonRecord = callRecord(call(i, a), {
    gateway: null,
    status: 499,
    errorCode: 'ABANDONED',
    fault: null,
    usage,
    costMicros: 240n,
    usageSource: 'estimate',
    latencyMs: 125_000,
  })
  return {
    userId: user(a),
    keyId: key(a),
    rpm: 1_000_000,
    nowMs: at,
    reserveMicros: 900n,
    keyLimitMicros: LIMITED ? 1_000_000_000n : null,
    ...(LIMITED ? { tpm: 100_000_000, tokens: 4_508, maxConcurrent: 1_000 } : {}),
    lease: { id: id('req', i), deadlineMs: at + 125_000, abandonCostMicros: 240n, abandonRecord },
  }
}

function settlement(i: number, a: number): SettleInput {
  const record = callRecord(call(i, a), {
    gateway: 'openai',
    status: 200,
    errorCode: null,
    fault: null,
    usage,
    costMicros: 123n,
    usageSource: 'upstream',
    latencyMs: 412,
  })
  return {
    userId: user(a),
    keyId: key(a),
    reservedMicros: 900n,
    costMicros: 123n,
    record,
    leaseId: id('req', i),
    ...(LIMITED ? { tokens: { nowMs: at, giveBack: 4_000 } } : {}),
  }
}

interface Reading {
  commands: Map<string, number>
  inBytes: number
  outBytes: number
  cpuUs: number
}

async function reading(): Promise<Reading> {
  const text = await raw.info('stats', 'commandstats', 'cpu')
  const num = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(text)?.[1] ?? 0)
  const commands = new Map<string, number>()
  for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) commands.set(m[1]!, Number(m[2]))
  return {
    commands,
    inBytes: num('total_net_input_bytes'),
    outBytes: num('total_net_output_bytes'),
    cpuUs: (num('used_cpu_user') + num('used_cpu_sys')) * 1e6,
  }
}

const store = await createRedisStore(`redis://127.0.0.1:${PORT}`, { prefix: 'tg:', shards: 16 })
for (let a = 0; a < ACCOUNTS; a++) await store.loadAccount(user(a), key(a), 1_000_000_000_000n, 0n)
// A first wave loads the scripts (EVAL) and warms nothing else up.
const drain = async () => {
  for (;;) {
    const entries = await store.readOutbox('bench', 500, 0)
    if (entries.length === 0) return
    await store.ackOutbox(entries)
  }
}
const runCalls = async (from: number, n: number) => {
  for (let w = from; w < from + n; w += WAVE) {
    const wave = Array.from({ length: WAVE }, (_, j) => w + j)
    const admitted = await Promise.all(wave.map((i) => store.admit(admission(i, i % ACCOUNTS))))
    if (!admitted.every((r) => r.ok)) throw new Error(`refused: ${JSON.stringify(admitted.find((r) => !r.ok))}`)
    const settled = await Promise.all(wave.map((i) => store.settle(settlement(i, i % ACCOUNTS))))
    if (!settled.every(Boolean)) throw new Error('a settlement was not applied')
    if ((w + WAVE - from) % DRAIN_EVERY === 0) await drain()
  }
  await drain()
}
await runCalls(0, DRAIN_EVERY)

// INFO's own traffic: two readings with nothing between them.
const r0 = await reading()
const r1 = await reading()
const infoIn = r1.inBytes - r0.inBytes
const infoOut = r1.outBytes - r0.outBytes
const callgrind = (arg: string) => Bun.spawn(['callgrind_control', arg, String(server.pid)], { stdout: 'ignore' }).exited
if (CALLGRIND) await callgrind('--zero')
const before = await reading()
await runCalls(DRAIN_EVERY, CALLS)
const after = await reading()
let instructions: number | undefined
if (CALLGRIND) {
  await callgrind('--dump')
  const dumps = readdirSync(dir).filter((f) => /^cg\.\d+\.\d+$/.test(f))
  const text = dumps.map((f) => readFileSync(join(dir, f), 'utf8')).find((t) => t.includes('Trigger: dump'))
  instructions = Number(/^summary: (\d+)/m.exec(text ?? '')?.[1] ?? Number.NaN)
}

const perCall = (n: number) => (n / CALLS).toFixed(2)
const commands: [string, number][] = []
let total = 0
for (const [name, n] of after.commands) {
  const d = n - (before.commands.get(name) ?? 0) - (name === 'info' ? 1 : 0)
  if (d > 0 && name !== 'info') {
    commands.push([name, d])
    total += d
  }
}
commands.sort((a, b) => b[1] - a[1])
console.log(
  `${CALLS} calls in waves of ${WAVE} over ${ACCOUNTS} account(s), keys ${LIMITED ? 'with a spend limit, tpm and a cap on calls at once' : 'without limits'}`,
)
console.log(`commands per call: ${perCall(total)} — ${commands.map(([n, d]) => `${perCall(d)} ${n}`).join(', ')}`)
console.log(
  `bytes per call: ${perCall(after.inBytes - before.inBytes - infoIn)} in, ${perCall(after.outBytes - before.outBytes - infoOut)} out`,
)
if (instructions !== undefined) console.log(`instructions per call (callgrind): ${(instructions / CALLS).toFixed(0)}`)
console.log(`CPU per call (timed, noisy): ${((after.cpuUs - before.cpuUs) / CALLS).toFixed(1)} µs`)

await store.close()
raw.disconnect()
server.kill()
await server.exited
if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true })
else console.log(dir)
