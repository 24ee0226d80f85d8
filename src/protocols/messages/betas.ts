// The client's `anthropic-beta` features that an Anthropic upstream is asked for (docs/api.md
// "Messages"). The list is cleaned, never refused: blank, malformed and repeated names are left
// out, and so are `oauth-*` features, which say the request carries the caller's own OAuth token
// — the upstream call carries the gateway's key instead, and Anthropic-compatible upstreams
// refuse the claim (Claude Code sends it through gateways too).
const NAME = /^[a-z0-9][a-z0-9._-]*$/i

const honoured = (name: string) => NAME.test(name) && !name.toLowerCase().startsWith('oauth-')

/** The comma-separated features to forward, or undefined when none is left. */
export function forwardedBetas(header: string | null): string | undefined {
  if (!header) return undefined
  const names = [...new Set(header.split(',').map((s) => s.trim()))].filter(honoured)
  return names.length ? names.join(',') : undefined
}
