// What the benchmark reads about the Tollgate it measures, from outside its request path:
// - event-loop delay, from the side channel of bench/loop-delay-preload.ts: each read gives the
//   delay since the previous read, so one read opens a window and the next one closes it;
// - the ledger outbox depth (records waiting for the writer), as XLEN of its Redis streams.
import type Redis from 'ioredis'

export interface LoopDelay {
  /** Milliseconds a 10 ms timer fired late, over the window. */
  p50: number
  p99: number
  max: number
}

/** Starts a window now; each call of the returned function ends the current window and starts the next. */
export async function loopDelayMeter(loopUrl: string): Promise<() => Promise<LoopDelay>> {
  const read = async () => (await (await fetch(loopUrl)).json()) as LoopDelay
  await read()
  return read
}

/** Runs `work` inside one window. */
export async function withLoopDelay<T>(loopUrl: string, work: () => Promise<T>): Promise<[T, LoopDelay]> {
  const read = await loopDelayMeter(loopUrl)
  const result = await work()
  return [result, await read()]
}

/** "p50 / p99 / max" in ms. */
export const fmtDelay = (d: LoopDelay) => `${d.p50.toFixed(2)} / ${d.p99.toFixed(2)} / ${d.max.toFixed(1)}`

/** Records in the ledger outbox: the summed length of the Redis streams under Tollgate's key prefix. */
export async function outboxDepth(redis: Redis, prefix: string): Promise<number> {
  let depth = 0
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*:outbox`, 'COUNT', 1000, 'TYPE', 'stream')
    cursor = next
    for (const key of keys) depth += await redis.xlen(key)
  } while (cursor !== '0')
  return depth
}

/**
 * Waits until the outbox is empty (the writer caught up with what earlier runs left), so that a
 * part starts from a quiet gateway; gives the seconds waited, or NaN at the time limit.
 */
export async function outboxDrained(depth: () => Promise<number>, limitMs = 120_000, pollMs = 500): Promise<number> {
  const t0 = performance.now()
  while (performance.now() - t0 < limitMs) {
    if ((await depth()) === 0) return (performance.now() - t0) / 1000
    await Bun.sleep(pollMs)
  }
  return NaN
}
