import { describe, expect, test } from 'bun:test'
import { base62, newRequestId, sha256Hex } from '../../src/lib/ids.ts'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

describe('ids', () => {
  test('request ids are the prefix, an underscore and 24 base62 characters', () => {
    expect(newRequestId()).toMatch(/^req_[0-9A-Za-z]{24}$/)
    expect(newRequestId('resp')).toMatch(/^resp_[0-9A-Za-z]{24}$/)
  })

  test('base62 gives exactly the length asked, also past the scratch buffer and across pool refills', () => {
    for (const n of [0, 1, 6, 24, 40, 64, 65, 300]) {
      const s = base62(n)
      expect(s).toHaveLength(n)
      expect(s).toMatch(/^[0-9A-Za-z]*$/)
    }
  })

  test('ids do not repeat (20,000 ids spanning many pool refills)', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 20_000; i++) seen.add(newRequestId())
    expect(seen.size).toBe(20_000)
  })

  test('every character is about equally likely (no modulo bias)', () => {
    const counts = new Map<string, number>()
    const n = 62 * 2_000
    const text = base62(n)
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1)
    expect(counts.size).toBe(62)
    // Chi-square with 61 degrees of freedom: above 120 has probability < 1e-5 for a fair source.
    // A biased mapping (all 256 byte values mod 62) puts the first 8 characters ~25% higher: χ² ≈ 800.
    const expected = n / 62
    const chi2 = [...ALPHABET].reduce((sum, ch) => sum + ((counts.get(ch) ?? 0) - expected) ** 2 / expected, 0)
    expect(chi2).toBeLessThan(120)
  })

  test('sha256Hex is lowercase hex SHA-256', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })
})
