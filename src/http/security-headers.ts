// Response headers of the console and admin API (docs/security.md "Headers"). Set on every
// /api/* response, errors included; a handler's own header wins (the public catalog sets its
// cacheable Cache-Control, so only it is stored by caches — the new-key response with its
// secret, like everything else, is no-store).

const BASE: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  // The sandbox checkout page has a Pay button: no page of ours may be framed (clickjacking).
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on a form post,
  // and the same-origin check would refuse the sandbox page's own Pay and Cancel buttons.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
}

const HSTS = { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }

/** The headers for one response; HSTS only when the client reached us over TLS. */
export const consoleSecurityHeaders = (https: boolean): Record<string, string> => (https ? { ...BASE, ...HSTS } : BASE)
