// A small load balancer for Tollgate instances without Docker (docs/deploy.md "Without Docker"):
//   bun deploy/proxy.ts <listen port> <instance URL>...
// Round robin over the instances that answer GET /readyz (checked every 2 s, so a draining or
// stopped instance leaves the rotation; the others are tried last); a request whose connection is refused, or that a
// draining instance turned away with 503 + Retry-After, is tried on the next one. Bodies stream
// both ways (server-sent events are forwarded frame by frame). It sets X-Forwarded-For and
// X-Forwarded-Proto, so the instances need TRUSTED_PROXIES with this proxy's address. For a
// public deployment put nginx or Caddy here instead (docs/deploy.md "The proxy in front").
const [listen, ...instances] = process.argv.slice(2)
if (!listen || !/^\d+$/.test(listen) || instances.length === 0) {
  console.error('usage: bun deploy/proxy.ts <listen port> <instance URL>...')
  process.exit(2)
}
const backends = instances.map((u) => u.replace(/\/+$/, ''))
const healthy = new Set(backends)
/** Hop-by-hop headers (RFC 9110 §7.6.1) and the ones this proxy sets itself. */
const DROP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-connection', 'x-forwarded-proto']

async function check() {
  for (const b of backends) {
    const ok = await fetch(`${b}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) healthy.add(b)
    else healthy.delete(b)
  }
}
void check()
setInterval(() => void check(), 2_000)

let next = 0
const server = Bun.serve({
  port: Number(listen),
  // Long generations stream with gaps; the instances end idle streams themselves (CLIENT_IDLE_TIMEOUT_MS).
  idleTimeout: 255,
  async fetch(req, srv) {
    const url = new URL(req.url)
    const headers = new Headers(req.headers)
    for (const h of DROP) headers.delete(h)
    const peer = srv.requestIP(req)?.address ?? 'unknown'
    headers.set('x-forwarded-for', [req.headers.get('x-forwarded-for'), peer].filter(Boolean).join(', '))
    headers.set('x-forwarded-proto', 'http')
    // Buffered once so that a refused attempt can be repeated on the next instance.
    const body = req.body ? await req.arrayBuffer() : undefined
    // Healthy instances in turn, then the others (starting, or failed a check ago) as a last resort.
    const up = backends.filter((b) => healthy.has(b))
    const turn = next++ % Math.max(up.length, 1)
    const order = [...up.slice(turn), ...up.slice(0, turn), ...backends.filter((b) => !healthy.has(b))]
    for (const [i, backend] of order.entries()) {
      try {
        const res = await fetch(`${backend}${url.pathname}${url.search}`, {
          method: req.method,
          headers,
          body,
          redirect: 'manual',
          signal: req.signal,
        })
        if (res.status === 503 && res.headers.has('retry-after') && i < order.length - 1) continue
        healthy.add(backend)
        return new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers })
      } catch (e) {
        if (req.signal.aborted) throw e
        console.error(`${backend} failed, trying the next instance: ${e}`)
        healthy.delete(backend)
      }
    }
    return new Response('no Tollgate instance is available\n', { status: 502 })
  },
})
console.log(`proxy listening on http://127.0.0.1:${server.port} → ${backends.join(', ')}`)
