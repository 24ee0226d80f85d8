// Constant-time check of `Authorization: Bearer <expected>` (admin API, /metrics).
import { timingSafeEqual } from 'node:crypto'

export function bearerMatches(expected: string, header: string | null): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice(7) : ''
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}
