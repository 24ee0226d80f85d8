// Who is calling, as far as the socket and our own proxies can vouch: the client IP for per-IP
// limits and whether the client used TLS (Secure cookie, same-origin check).
// X-Forwarded-For and X-Forwarded-Proto are believed only when the socket peer is a trusted
// proxy (TRUSTED_PROXIES); then the right-most hop that is not a trusted proxy is the client,
// because every hop to its right was appended by a proxy we trust.

export interface ClientInfo {
  ip: string
  https: boolean
}

const MAX_HOP = 64

export function clientInfo(url: URL, headers: Headers, peer: string | undefined, trusted: (ip: string | undefined) => boolean): ClientInfo {
  const socket = unmap(peer ?? 'unknown')
  if (!trusted(socket)) return { ip: socket, https: url.protocol === 'https:' }
  const hops = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((h) => unmap(h.trim()).slice(0, MAX_HOP))
    .filter(Boolean)
  let ip = hops[0] ?? socket
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted(hops[i])) {
      ip = hops[i]!
      break
    }
  }
  // The edge proxy's view of the scheme comes first when proxies append to the header.
  const proto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
  return { ip, https: url.protocol === 'https:' || proto === 'https' }
}

/** One spelling per address: a dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d. */
const unmap = (ip: string) => (ip.toLowerCase().startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip)
