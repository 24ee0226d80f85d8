// A small load balancer for multi-instance tests: round-robin over backends, a health check on
// /readyz every `checkMs` that takes a draining or dead instance out of rotation, and a retry on
// the next backend when the connection was refused or a draining instance answered 503 with
// Retry-After before admitting the call (docs/drain.md: a load balancer may retry those). One fresh connection per request (keepalive off), so a
// stopping instance refuses new requests instead of dropping them on a pooled socket.
import type { Server } from 'bun'

/** Bun's fetch error codes for a refused connection (the name changed across Bun versions). */
const REFUSED = new Set(['ECONNREFUSED', 'ConnectionRefused'])

export interface LbProxy {
  url: string
  /** Backends currently in rotation. */
  healthy(): string[]
  /** Which backend answered each request, in order. */
  served: string[]
  stop(): void
}

export function startLbProxy(backends: string[], checkMs = 50): LbProxy {
  const up = new Set(backends)
  const served: string[] = []
  let next = 0
  const check = async () => {
    await Promise.all(
      backends.map(async (b) => {
        const ok = await fetch(`${b}/readyz`, { signal: AbortSignal.timeout(2_000), keepalive: false }).then(
          (r) => r.ok,
          () => false,
        )
        if (ok) up.add(b)
        else up.delete(b)
      }),
    )
  }
  const timer = setInterval(() => void check(), checkMs)
  const server: Server<undefined> = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 60,
    async fetch(req) {
      const body = req.body ? await req.arrayBuffer() : undefined
      const path = new URL(req.url).pathname + new URL(req.url).search
      const pool = backends.filter((b) => up.has(b))
      for (let i = 0; i < pool.length; i++) {
        const b = pool[(next++ + i) % pool.length]!
        try {
          const res = await fetch(`${b}${path}`, { method: req.method, headers: req.headers, body, keepalive: false, redirect: 'manual' })
          if (res.status === 503 && res.headers.has('retry-after') && i < pool.length - 1) {
            up.delete(b)
            continue
          }
          served.push(b)
          return new Response(res.body, { status: res.status, headers: res.headers })
        } catch (e) {
          if (!REFUSED.has((e as { code?: string }).code ?? '')) throw e
          up.delete(b)
        }
      }
      return new Response('no healthy backend', { status: 502 })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    healthy: () => backends.filter((b) => up.has(b)),
    served,
    stop: () => (clearInterval(timer), void server.stop(true)),
  }
}
