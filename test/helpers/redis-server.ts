// A throwaway redis-server for fault tests (ports 6390–6394 belong to test/faults, 6417–6418 to
// test/store/append-only.test.ts): it can be killed (SIGKILL, as a crash) and started again on
// the same port and data directory, with or without its data (AOF). Never point these helpers at
// the shared Redis.
import Redis from 'ioredis'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { until } from './until.ts'

export interface ThrowawayRedis {
  url: string
  /** SIGKILL: no shutdown save, clients see the connection drop. */
  kill(): Promise<void>
  /** Start again on the same port; `keepData` false wipes the data directory first. */
  start(keepData?: boolean): Promise<void>
  /** A plain client on this server (the caller disconnects it). */
  client(): Redis
  /** Send a signal (SIGSTOP / SIGCONT: a hung Redis). */
  signal(sig: 'SIGSTOP' | 'SIGCONT'): void
  stop(): Promise<void>
}

async function answersPing(port: number): Promise<boolean> {
  const r = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
  r.on('error', () => {})
  try {
    await r.connect()
    return (await r.ping()) === 'PONG'
  } catch {
    return false
  } finally {
    r.disconnect()
  }
}

export async function startThrowawayRedis(port: number, opts: { aof: boolean } = { aof: true }): Promise<ThrowawayRedis> {
  let dir = mkdtempSync(join(tmpdir(), `tg-redis-${port}-`))
  let proc: ReturnType<typeof Bun.spawn> | undefined
  const args = () => [
    'redis-server',
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    opts.aof ? 'yes' : 'no',
    '--appendfsync',
    'always',
    '--maxmemory-policy',
    'noeviction',
  ]
  const start = async (keepData = true) => {
    if (!keepData) {
      rmSync(dir, { recursive: true, force: true })
      dir = mkdtempSync(join(tmpdir(), `tg-redis-${port}-`))
    }
    // A leftover server on the port would answer in place of ours: refuse rather than test it.
    if (await answersPing(port)) throw new Error(`port ${port} already has a Redis: stop it first`)
    proc = Bun.spawn(args(), { stdout: 'ignore', stderr: 'ignore' })
    await until(() => answersPing(port), `redis-server on ${port}`, 20_000)
  }
  const kill = async () => {
    if (!proc) return
    proc.kill('SIGKILL')
    await proc.exited
    proc = undefined
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    client: () => new Redis({ port, host: '127.0.0.1' }),
    signal: (sig) => proc?.kill(sig),
    async stop() {
      await kill()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
