// The breaker board on Redis: open breakers in one hash (field = breaker key, value = JSON with
// the open-until time), changes on one pub/sub channel, the half-open probe slot as SET NX PX.
// Its own two connections: a subscribed connection can run no other command.
import Redis from 'ioredis'
import { readShared, type BreakerBoard, type SharedBreaker } from './breaker-board.ts'

export async function createRedisBoard(url: string, prefix: string): Promise<BreakerBoard> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 })
  const sub = new Redis(url, { lazyConnect: true })
  await Promise.all([redis.connect(), sub.connect()])
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
      const pipe = redis.multi()
      if (state.phase === 'open') pipe.hset(hash, key, JSON.stringify(state))
      else pipe.hdel(hash, key)
      pipe.publish(channel, JSON.stringify({ key, state }))
      await pipe.exec()
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
    async close() {
      listeners.length = 0
      sub.disconnect()
      await redis.quit()
    },
  }
}
