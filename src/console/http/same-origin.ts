// Cross-site request refusal for state-changing console calls (docs/console.md "Sessions"). The
// session cookie is SameSite=Lax, which already keeps it off cross-site POSTs in current browsers;
// this check is the second, explicit line.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * True when a browser says the request comes from another site. Browsers send Origin on every
 * non-GET fetch and form post; it must be this service's origin (PUBLIC_URL, or the requested
 * host under the scheme the client used). Sec-Fetch-Site covers a browser that withholds Origin.
 * Callers sending neither header (curl, server code) carry no ambient browser cookie and pass.
 */
export function isCrossSite(method: string, url: URL, headers: Headers, own: { https: boolean; publicUrl: string | undefined }): boolean {
  if (SAFE_METHODS.has(method)) return false
  const origin = headers.get('origin')
  const site = headers.get('sec-fetch-site')
  if (origin === null) return site !== null && site !== 'same-origin' && site !== 'none'
  const given = origin.toLowerCase()
  // Bun builds the request URL from the Host header; the scheme is what the client used.
  if (given === `${own.https ? 'https' : 'http'}://${url.host.toLowerCase()}`) return false
  return !(own.publicUrl && given === new URL(own.publicUrl).origin.toLowerCase())
}
