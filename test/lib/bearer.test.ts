// The bearer-token check, as a table: only the exact token passes, whatever its length.
import { describe, expect, test } from 'bun:test'
import { bearerMatches } from '../../src/lib/bearer.ts'

describe('bearerMatches', () => {
  const token = 'admin-token-0123456789abcdef'
  test.each([
    ['exact', `Bearer ${token}`, true],
    ['missing', null, false],
    ['no scheme', token, false],
    ['shorter', `Bearer ${token.slice(0, -1)}`, false],
    ['longer', `Bearer ${token}x`, false],
    ['empty', 'Bearer ', false],
    ['very long', `Bearer ${'x'.repeat(100_000)}`, false],
  ] as const)('%s', (_, header, ok) => expect(bearerMatches(token, header)).toBe(ok))
})
