// A gateway's own `headers` and `query` (docs/providers.md "Headers and query"): added to every
// upstream call after the protocol's headers, so a gateway's `api-key` or `HTTP-Referer` is sent
// as written and one it names again (e.g. `anthropic-version`) replaces the protocol's.
import type { Gateway } from '../../core/gateway.ts'

/** The protocol's headers with the gateway's on top; names compared without case. */
export function withGatewayHeaders(gw: Gateway, headers: Record<string, string>): Record<string, string> {
  if (!gw.headers) return headers
  const out = { ...headers }
  for (const [name, value] of Object.entries(gw.headers)) {
    const lower = name.toLowerCase()
    for (const k of Object.keys(out)) if (k.toLowerCase() === lower) delete out[k]
    out[lower] = value
  }
  return out
}

/** baseUrl + the protocol's endpoint, with the gateway's query parameters. */
export function upstreamUrl(gw: Gateway, path: string): string {
  const url = gw.baseUrl + path
  if (!gw.query) return url
  const entries = Object.entries(gw.query)
  if (entries.length === 0) return url
  return `${url}${url.includes('?') ? '&' : '?'}${new URLSearchParams(entries).toString()}`
}
