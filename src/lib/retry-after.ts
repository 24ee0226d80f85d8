// How long an answer asks the caller to wait: `retry-after-ms` (OpenAI, milliseconds, may be
// fractional) wins over `Retry-After` (RFC 9110: delay-seconds or an HTTP-date). Unreadable or
// negative values count as absent.

export function retryAfterMs(headers: Headers, nowMs: number): number | undefined {
  const ms = headers.get('retry-after-ms')
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms))
  const value = headers.get('retry-after')?.trim()
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000)
  // An HTTP-date names a month and a day ("Thu, 01 Jan 2026 00:00:03 GMT"); Date.parse alone
  // would read "-3" as a year.
  const at = /[A-Za-z]{3}/.test(value) ? Date.parse(value) : Number.NaN
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - nowMs)
}
