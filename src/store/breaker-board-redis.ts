// The breaker board on Redis: open breakers in one hash (field = breaker key, value = JSON with
// the open-until time), changes on one pub/sub channel, the half-open probe slot as SET NX PX.
// Its own two connections: a subscribed connection can run no other command. On a Redis Cluster
// the same: the hash and each probe slot are single keys, and a PUBLISH reaches every node.
import { readShared, type BreakerBoard, type SharedBreaker } from './breaker-board.ts'
import { connectRedis, type RedisTarget } from './redis-client.ts'

export async function createRedisBoard(target: RedisTarget, prefix: string): Promise<BreakerBoard> {
  const [redis, sub] = await Promise.all([connectRedis(target, { maxRetriesPerRequest: 2 }), connectRedis(target, {})])
  const hash = `${prefix}breakers`
  const channel = `${prefix}breakers`
  const listeners: ((key: string, state: SharedBreaker) => void)[] = []
  sub.on('message', (ch: string, message: string) => {
    if (ch !== channel) return
    const change = readShared(message)
    if (change) for (const fn of listeners) fn(change.key, change.state)
  })
  await sub.subscribe(channel)
  return {
    async publish(key, state) {
      // The hash first: an instance that misses the message finds the change at its next snapshot.
      if (state.phase === 'open') await redis.hset(hash, key, JSON.stringify(state))
      else await redis.hdel(hash, key)
      await redis.publish(channel, JSON.stringify({ key, state }))
    },
    async snapshot() {
      const all = await redis.hgetall(hash)
      const out = new Map<string, SharedBreaker>()
      for (const [key, value] of Object.entries(all)) {
        const change = readShared(`{"key":${JSON.stringify(key)},"state":${value}}`)
        if (change) out.set(key, change.state)
      }
      return out
    },
    subscribe(fn) {
      listeners.push(fn)
    },
    async claimProbe(key, ttlMs) {
      return (await redis.set(`${prefix}breaker-probe:${key}`, '1', 'PX', Math.max(1, ttlMs), 'NX')) === 'OK'
    },
    async releaseProbe(key) {
      await redis.del(`${prefix}breaker-probe:${key}`)
    },
    async close() {
      listeners.length = 0
      sub.disconnect()
      await redis.quit()
    },
  }
}
