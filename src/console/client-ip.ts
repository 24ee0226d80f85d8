// The caller's IP for per-IP limits. X-Forwarded-For is believed only when the socket peer is
// a configured trusted proxy (TRUSTED_PROXIES); then the right-most untrusted hop is the client.

export function clientIp(headers: Headers, socketIp: string | undefined, trusted: readonly string[]): string {
  const peer = normalize(socketIp ?? 'unknown')
  if (!trusted.includes(peer)) return peer
  const hops = (headers.get('x-forwarded-for') ?? '').split(',').map((h) => normalize(h.trim())).filter(Boolean)
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted.includes(hops[i]!)) return hops[i]!
  return hops[0] ?? peer
}

const normalize = (ip: string) => (ip.startsWith('::ffff:') ? ip.slice(7) : ip)

/** TLS as the client saw it: the request URL, or X-Forwarded-Proto from a trusted proxy. */
export function isHttps(url: URL, headers: Headers, socketIp: string | undefined, trusted: readonly string[]): boolean {
  if (url.protocol === 'https:') return true
  return trusted.includes(normalize(socketIp ?? '')) && headers.get('x-forwarded-proto') === 'https'
}
