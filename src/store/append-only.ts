// Whether Redis keeps every write on disk (docs/operations.md "Redis: settings and failure behaviour"): the hot
// balances and the outbox of settlements not yet in Postgres live in Redis, so without the
// append-only file a Redis restart loses money movements. Read with CONFIG GET appendonly, on
// every master of a cluster; a server that refuses CONFIG (managed services rename it) is unknown.
import type { RedisClient } from './redis-client.ts'

/** true: appendonly yes everywhere; false: no somewhere; undefined: could not be read. */
export type AppendOnly = boolean | undefined

export async function readAppendOnly(redis: RedisClient): Promise<AppendOnly> {
  const nodes = 'nodes' in redis ? redis.nodes('master') : [redis]
  try {
    const replies = await Promise.all(nodes.map((n) => n.config('GET', 'appendonly') as Promise<unknown>))
    const values = replies.map(appendOnlyValue)
    if (values.some((v) => v === undefined)) return undefined
    return values.every((v) => v === 'yes')
  } catch {
    return undefined
  }
}

/** The value of a CONFIG GET reply: ['appendonly', 'yes'] (RESP2) or { appendonly: 'yes' } (RESP3). */
function appendOnlyValue(reply: unknown): string | undefined {
  if (Array.isArray(reply)) return typeof reply[1] === 'string' ? reply[1] : undefined
  const v = (reply as Record<string, unknown> | null)?.appendonly
  return typeof v === 'string' ? v : undefined
}

/** The one start-up warning line for a Redis that may lose money on restart; none when AOF is on. */
export function appendOnlyWarning(aof: AppendOnly): string | undefined {
  if (aof === true) return undefined
  const why =
    aof === false
      ? 'runs without the append-only file (appendonly no)'
      : 'did not say whether it keeps an append-only file (CONFIG GET refused)'
  return `Redis ${why}: a Redis restart would lose settled calls not yet in Postgres; set appendonly yes (docs/operations.md "Redis: settings and failure behaviour")`
}
