// A TCP proxy for fault tests (e.g. in front of Postgres), listening on port 0. Modes:
// pass (forward both ways), blackhole (accept and swallow everything: the peer looks hung) and
// cut (close every connection and refuse new ones at once). restore() ends a blackhole as a
// partition ends — the connections that lost bytes are reset — and passes traffic again.
import type { Socket } from 'bun'
import { freshDatabase } from './services.ts'

type Mode = 'pass' | 'blackhole' | 'cut'

interface Pair {
  client: Socket<Conn>
  upstream: Socket<Conn> | undefined
  /** Bytes from the client before the upstream connection opened. */
  queued: Uint8Array[]
  /** Saw a blackhole: reset at restore(). */
  tainted: boolean
}

interface Conn {
  pair: Pair
}

export interface TcpProxy {
  port: number
  /** host:port to put in a URL instead of the target's. */
  address: string
  blackhole(): void
  cut(): void
  restore(): void
  /** Open client connections right now. */
  readonly connections: number
  stop(): void
}

export function startTcpProxy(targetHost: string, targetPort: number): TcpProxy {
  let mode: Mode = 'pass'
  const pairs = new Set<Pair>()
  const close = (p: Pair) => {
    pairs.delete(p)
    // terminate(), not end(): an abrupt close, as a reset or a dead peer looks to a driver.
    p.client.terminate()
    p.upstream?.terminate()
  }
  const server = Bun.listen<Conn>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(client) {
        const pair: Pair = { client, upstream: undefined, queued: [], tainted: mode === 'blackhole' }
        client.data = { pair }
        pairs.add(pair)
        if (mode === 'cut') return close(pair)
        if (mode === 'blackhole') return
        void Bun.connect<Conn>({
          hostname: targetHost,
          port: targetPort,
          data: { pair },
          socket: {
            open(up) {
              pair.upstream = up
              for (const chunk of pair.queued) up.write(chunk)
              pair.queued = []
            },
            data(_up, chunk) {
              if (mode === 'pass' && !pair.tainted) pair.client.write(chunk)
            },
            close: () => close(pair),
            error: () => close(pair),
          },
        }).catch(() => close(pair))
      },
      data(_client, chunk) {
        const { pair } = _client.data
        if (mode !== 'pass' || pair.tainted) {
          pair.tainted = true
          return
        }
        if (pair.upstream) pair.upstream.write(chunk)
        else pair.queued.push(new Uint8Array(chunk))
      },
      close: (client) => close(client.data.pair),
      error: (client) => close(client.data.pair),
    },
  })
  return {
    port: server.port,
    address: `127.0.0.1:${server.port}`,
    blackhole() {
      mode = 'blackhole'
      for (const p of pairs) p.tainted = true
    },
    cut() {
      mode = 'cut'
      for (const p of [...pairs]) close(p)
    },
    restore() {
      for (const p of [...pairs]) if (p.tainted) close(p)
      mode = 'pass'
    },
    get connections() {
      return pairs.size
    },
    stop() {
      for (const p of [...pairs]) close(p)
      server.stop(true)
    },
  }
}

/** A fresh Postgres database reached through a proxy the test can blackhole or cut. */
export async function proxiedDatabase(): Promise<{ url: string; proxy: TcpProxy; drop: () => Promise<void> }> {
  const db = await freshDatabase()
  const url = new URL(db.url)
  const proxy = startTcpProxy(url.hostname, Number(url.port || 5432))
  url.host = proxy.address
  return { url: url.toString(), proxy, drop: db.drop }
}
