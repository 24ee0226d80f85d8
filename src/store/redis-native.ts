// The per-call scripts (admit, settle) and the mirror drops that must follow them on the same
// connection, over Bun's native Redis client: on a single Redis it answers a call's round trip
// with less client work and fewer wake-ups than ioredis (docs/benchmarks.md "Low load: where
// the added latency comes from (issue 15 part F)"). A cluster keeps ioredis for everything.
//
// The hot path's failure rules hold here too (docs/operations.md "Redis: settings and failure
// behaviour"): no offline queue (a command while disconnected fails at once), a bound on each
// command (REDIS_COMMAND_TIMEOUT_MS), nothing replayed after a reconnect (the client does not
// reconnect by itself; this module does, at most 500 ms apart), and a script Redis lost on a
// restart is sent again in full (NOSCRIPT).
import { withDeadline } from '../lib/deadline.ts'

export interface NativeConnection {
  /** EVALSHA of a script given at connect, by name; its reply as the client decodes it. */
  script(name: string, keys: string[], args: string[]): Promise<unknown>
  /** One plain command. */
  send(command: string, args: string[]): Promise<unknown>
  close(): void
}

const MAX_RECONNECT_DELAY_MS = 500

const sha1 = (text: string) => new Bun.CryptoHasher('sha1').update(text).digest('hex')

export async function connectNative(url: string, scripts: Record<string, string>, commandTimeoutMs: number): Promise<NativeConnection> {
  const client = new Bun.RedisClient(url, {
    autoReconnect: false,
    enableOfflineQueue: false,
    connectionTimeout: Math.max(1_000, commandTimeoutMs),
  })
  await client.connect()
  const shas = new Map(Object.entries(scripts).map(([name, text]) => [name, sha1(text)]))
  let closed = false
  let reconnecting = false
  const reconnect = async () => {
    if (reconnecting || closed) return
    reconnecting = true
    for (let attempt = 1; !closed && !client.connected; attempt++) {
      await Bun.sleep(Math.min(50 * attempt, MAX_RECONNECT_DELAY_MS))
      if (!closed) await client.connect().catch(() => {})
    }
    reconnecting = false
  }
  client.onclose = () => void reconnect()
  const bounded = <T>(p: Promise<T>, what: string) => withDeadline(p, commandTimeoutMs, `redis ${what}`)
  return {
    async script(name, keys, args) {
      const sha = shas.get(name)
      if (!sha) throw new Error(`unknown script ${name}`)
      const argv = [String(keys.length), ...keys, ...args]
      try {
        return await bounded(client.send('EVALSHA', [sha, ...argv]), name)
      } catch (e) {
        if (!String((e as Error).message).startsWith('NOSCRIPT')) throw e
        return bounded(client.send('EVAL', [scripts[name]!, ...argv]), name)
      }
    },
    send: (command, args) => bounded(client.send(command, args), command),
    close() {
      closed = true
      client.close()
    },
  }
}
