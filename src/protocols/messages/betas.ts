// The client's `anthropic-beta` features that an Anthropic upstream is asked for, as
// docs/api.md "Messages" states. The list is cleaned, never refused: blank, malformed and
// repeated names are left out, and so are `oauth-*` features, which declare that the request
// carries the caller's own OAuth token: the upstream call carries the gateway's key instead, so
// the route cannot honour them (Claude Code sends one through gateways too, and some upstreams
// refuse it).
const NAME = /^[a-z0-9][a-z0-9._-]*$/i

const honoured = (name: string) => NAME.test(name) && !name.toLowerCase().startsWith('oauth-')

/** The comma-separated features to forward, or undefined when none is left. */
export function forwardedBetas(header: string | null): string | undefined {
  if (!header) return undefined
  const names = [...new Set(header.split(',').map((s) => s.trim()))].filter(honoured)
  return names.length ? names.join(',') : undefined
}
