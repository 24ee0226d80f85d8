// Strict ISO 8601 date-times (docs/security.md "Input"): JavaScript's Date rolls an impossible
// calendar date over (2099-02-31 becomes 2099-03-03), so the parts are checked to survive the
// round trip. Accepts YYYY-MM-DDTHH:MM[:SS[.fff…]] with Z or ±HH:MM, years 1970–9999.

const ISO = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/

export function parseIsoDateTime(text: string): Date | undefined {
  const m = ISO.exec(text)
  if (!m) return undefined
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '00'].map(Number) as [number, number, number, number, number, number]
  const day = new Date(Date.UTC(y, mo - 1, d))
  if (y < 1970 || day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return undefined
  if (h > 23 || mi > 59 || s > 59) return undefined
  const zone = m[8]!
  if (zone.length === 6 && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) return undefined
  const at = new Date(text.replace(' ', 'T'))
  return Number.isNaN(at.getTime()) ? undefined : at
}
