// Keep-alive connections for the streaming upstream client (h1-stream.ts): one idle list per
// origin, so a stream does not pay a TCP (and TLS) handshake, and the gateway does not leave a
// TIME_WAIT port behind per stream. A connection's events go to whichever exchange holds it.
import type { Socket } from 'bun'
import { limitReceiveBuffer } from './receive-buffer.ts'

export interface Exchange {
  data(data: Uint8Array): void
  close(): void
  error(err: Error): void
}

interface ConnState {
  exchange: Exchange | undefined
  pending: Uint8Array | undefined
  written: number
  idleTimer: Timer | undefined
}

export type Conn = Socket<ConnState>

const IDLE_MS = 4_000
/** Kernel receive buffer of an upstream socket: one read brings about this much (receive-buffer.ts). */
const RECEIVE_BUFFER_BYTES = 64 * 1024
const MAX_IDLE_PER_ORIGIN = 64
const idle = new Map<string, Conn[]>()

const forget = (origin: string, s: Conn) => {
  const list = idle.get(origin)
  const at = list?.indexOf(s) ?? -1
  if (list && at !== -1) list.splice(at, 1)
}

/** An idle connection to `target`'s origin, or a new one. `reused` says which. */
export async function acquire(target: URL): Promise<{ conn: Conn; reused: boolean }> {
  const origin = target.origin
  const list = idle.get(origin)
  while (list && list.length > 0) {
    const conn = list.pop()!
    clearTimeout(conn.data.idleTimer)
    if (conn.readyState !== 1) continue
    conn.ref?.()
    return { conn, reused: true }
  }
  const tls = target.protocol === 'https:'
  const conn = await Bun.connect<ConnState>({
    hostname: target.hostname.replace(/^\[|\]$/g, ''),
    port: Number(target.port || (tls ? 443 : 80)),
    tls: tls ? { serverName: target.hostname } : undefined,
    data: { exchange: undefined, pending: undefined, written: 0, idleTimer: undefined },
    socket: {
      data: (s, d) => s.data.exchange?.data(d),
      drain(s) {
        const p = s.data.pending
        if (p && s.data.written < p.length) s.data.written += s.write(p.subarray(s.data.written))
      },
      close(s) {
        forget(origin, s)
        clearTimeout(s.data.idleTimer)
        s.data.exchange?.close()
      },
      error: (s, err) => s.data.exchange?.error(err),
    },
  })
  // Bun's sockets carry their descriptor as `fd`; its type declarations leave it out.
  limitReceiveBuffer((conn as Conn & { fd?: number }).fd ?? -1, RECEIVE_BUFFER_BYTES)
  return { conn, reused: false }
}

/** Returns the bytes written at once (the rest follows on drain); negative if the socket is closed. */
export function send(conn: Conn, exchange: Exchange, request: Uint8Array): number {
  conn.data.exchange = exchange
  conn.data.pending = request
  conn.data.written = conn.write(request)
  return conn.data.written
}

/** The exchange ended cleanly and the upstream keeps the connection: park it for reuse. */
export function release(conn: Conn, origin: string): void {
  conn.data.exchange = undefined
  conn.data.pending = undefined
  conn.resume()
  const list = idle.get(origin) ?? []
  if (list.length >= MAX_IDLE_PER_ORIGIN) return void conn.end()
  list.push(conn)
  idle.set(origin, list)
  conn.data.idleTimer = setTimeout(() => (forget(origin, conn), conn.end()), IDLE_MS)
  conn.data.idleTimer.unref?.()
  conn.unref?.()
}
