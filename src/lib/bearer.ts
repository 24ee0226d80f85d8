// Constant-time check of `Authorization: Bearer <expected>` (admin API, /metrics): the token is
// compared as SHA-256 digests, so neither its bytes nor its length leak through timing
// (docs/security.md "What is stored hashed").
import { createHash, timingSafeEqual } from 'node:crypto'

const digest = (s: string) => createHash('sha256').update(s).digest()

export function bearerMatches(expected: string, header: string | null): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice(7) : ''
  return timingSafeEqual(digest(expected), digest(given))
}
