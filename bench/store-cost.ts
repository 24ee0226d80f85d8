// What the stores spend on Tollgate's calls (docs/benchmarks.md "What one call costs each
// process"): Redis's own CPU time and the commands it ran (INFO cpu, INFO commandstats — commands
// run inside Lua scripts count under their own names), and the CPU time of every PostgreSQL
// process on this machine (backends, writers, and what the postmaster collected from exited
// children). A reading is a point in time; the difference of two, divided by the calls between
// them, is the cost per call.
import type Redis from 'ioredis'
import { readdir } from 'node:fs/promises'

export interface StoreReading {
  redisCpuUs: number
  pgCpuUs: number
  /** Calls per Redis command name since the server started. */
  commands: Record<string, number>
  /** Microseconds Redis spent in each command (a script's include the commands it ran). */
  usec: Record<string, number>
}

export interface StoreCost {
  redisUs: number
  pgUs: number
  /** Redis commands per call, by name, most first; and their sum. */
  commands: [string, number][]
  commandsTotal: number
  /** Redis's time per call in the commands the client sent (scripts with what they ran), by name, most first. */
  sent: [string, number][]
}

const CLK_TCK = 100
/**
 * Commands Tollgate's scripts run (their time is inside EVALSHA's); the client sends none of these
 * but HMGET (the sweep's) and XADD (a refused call's record) itself. The outbox's acknowledgement
 * (XACK, XDEL) is a script too (lua/ack.lua).
 */
const SCRIPTED: Record<string, true> = { xadd: true, hmget: true, xack: true, xdel: true }

/** `used_cpu_user` + `used_cpu_sys` (seconds) and the per-command call counts. */
async function redisReading(redis: Redis): Promise<Omit<StoreReading, 'pgCpuUs'>> {
  const text = await redis.info('all')
  const num = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(text)?.[1] ?? 0)
  const commands: Record<string, number> = {}
  const usec: Record<string, number> = {}
  for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    commands[m[1]!] = Number(m[2])
    usec[m[1]!] = Number(m[3])
  }
  return { redisCpuUs: (num('used_cpu_user') + num('used_cpu_sys')) * 1e6, commands, usec }
}

/** utime + stime of every `postgres` process, + cutime + cstime of the postmaster (its exited children). */
async function pgCpuMicros(): Promise<number> {
  let ticks = 0
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    const stat = await Bun.file(`/proc/${pid}/stat`)
      .text()
      .catch(() => '')
    if (!stat.includes('(postgres)')) continue
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    ticks += Number(f[11]) + Number(f[12])
    // The postmaster: its parent is not a postgres process; its children's time is theirs.
    if (!(await isPostgres(Number(f[1])))) ticks += Number(f[13]) + Number(f[14])
  }
  return (ticks * 1e6) / CLK_TCK
}

async function isPostgres(pid: number): Promise<boolean> {
  const stat = await Bun.file(`/proc/${pid}/stat`)
    .text()
    .catch(() => '')
  return stat.includes('(postgres)')
}

export async function readStores(redis: Redis): Promise<StoreReading> {
  const [r, pgCpuUs] = await Promise.all([redisReading(redis), pgCpuMicros()])
  return { ...r, pgCpuUs }
}

/** Per call between two readings. The bench's own INFO commands are left out. */
export function storeCost(before: StoreReading, after: StoreReading, calls: number): StoreCost {
  const commands: [string, number][] = []
  let total = 0
  for (const [name, n] of Object.entries(after.commands)) {
    if (name === 'info') continue
    const d = n - (before.commands[name] ?? 0)
    if (d <= 0) continue
    commands.push([name, d / calls])
    total += d / calls
  }
  commands.sort((a, b) => b[1] - a[1])
  // Commands a script runs are timed inside the script's own time too: only what was sent counts here.
  const sent: [string, number][] = []
  for (const name of ['evalsha', 'eval', 'xreadgroup', 'xack', 'xdel', 'xadd', 'hmget', 'zrangebyscore', 'xautoclaim', 'xlen', 'scan']) {
    const d = (after.usec[name] ?? 0) - (before.usec[name] ?? 0)
    if (d > 0 && (name === 'evalsha' || name === 'eval' || !(name in SCRIPTED))) sent.push([name, d / calls])
  }
  sent.sort((a, b) => b[1] - a[1])
  return {
    sent,
    redisUs: (after.redisCpuUs - before.redisCpuUs) / calls,
    pgUs: (after.pgCpuUs - before.pgCpuUs) / calls,
    commands,
    commandsTotal: total,
  }
}

/** "4.10 evalsha, 1.20 xreadgroup, …" (µs) */
export const fmtSent = (c: StoreCost['sent']) => c.map(([name, us]) => `${name} ${us.toFixed(2)} µs`).join(', ')

/** "6.0 hincrby, 2.0 hmget, …" */
export const fmtCommands = (c: StoreCost['commands']) => c.map(([name, n]) => `${n.toFixed(2)} ${name}`).join(', ')
