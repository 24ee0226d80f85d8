// Who is calling, as far as the socket and our own proxies can vouch: the client IP for per-IP
// limits and whether the client used TLS (Secure cookie, same-origin check).
// X-Forwarded-For and X-Forwarded-Proto are believed only when the socket peer is a trusted
// proxy (TRUSTED_PROXIES); then the right-most hop that is not a trusted proxy is the client,
// because every hop to its right was appended by a proxy we trust; X-Forwarded-Proto is read at
// the same position.

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
  let at = hops.length > 0 ? 0 : -1
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted(hops[i])) {
      at = i
      break
    }
  }
  // X-Forwarded-Proto is read like X-Forwarded-For: each proxy appends the scheme it was reached
  // by, so the value that describes the client's connection is the one standing, counted from
  // the right, where the client's address stands in X-Forwarded-For. Anything to its left came
  // from the client itself. Without X-Forwarded-For, our own proxy's (right-most) value counts.
  const protos = (headers.get('x-forwarded-proto') ?? '').split(',').map((p) => p.trim().toLowerCase())
  const proto = at === -1 ? protos.at(-1) : protos[protos.length - (hops.length - at)]
  return { ip: at === -1 ? socket : hops[at]!, https: url.protocol === 'https:' || proto === 'https' }
}

/** One spelling per address: a dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d. */
const unmap = (ip: string) => (ip.toLowerCase().startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip)

type Server = { requestIP(req: Request): { address: string } | null } | null | undefined

/** The socket peer of `request` (undefined in-process, where there is no socket). */
export const peerAddress = (server: unknown, request: Request): string | undefined => (server as Server)?.requestIP(request)?.address
