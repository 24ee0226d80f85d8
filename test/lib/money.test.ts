// Money as integers (docs/api.md "Money"): exact decimal text ↔ scaled bigint, never a float.
import { describe, expect, test } from 'bun:test'
import { ceilDiv, formatScaled, formatUsd, numberToScaled, parseDecimal, usdToMicros } from '../../src/lib/money.ts'

describe('parseDecimal', () => {
  test.each([
    ['1', 6, 1_000_000n],
    ['0.075', 9, 75_000_000n],
    ['12.5', 2, 1250n],
    ['-3.25', 2, -325n],
    [' 7 ', 0, 7n],
    ['0.100000', 1, 1n], // extra digits that are zeros are fine
    ['99999999999999999999.000001', 6, 99_999_999_999_999_999_999_000_001n],
  ] as const)('%p at scale %p → %p', (text, scale, expected) => expect(parseDecimal(text, scale)).toBe(expected))

  test.each([
    ['0.0000001', 6], // a digit beyond the scale
    ['1e3', 6],
    ['1.', 6],
    ['.5', 6],
    ['+1', 6],
    ['', 6],
    ['abc', 6],
  ] as const)('%p at scale %p is refused', (text, scale) => expect(parseDecimal(text, scale)).toBeUndefined())
})

describe('numberToScaled', () => {
  test('goes through the shortest decimal text, so 0.1 + 0.2 style floats do not leak', () => {
    expect(numberToScaled(0.3, 6)).toBe(300_000n)
    expect(numberToScaled(1.1, 2)).toBe(110n)
  })
  test('a tiny number is written out, not in exponent form', () => {
    expect(numberToScaled(5e-7, 7)).toBe(5n)
    expect(numberToScaled(5e-7, 6)).toBeUndefined()
  })
  test.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('%p is refused', (n) => {
    expect(numberToScaled(n, 6)).toBeUndefined()
  })
  test('usdToMicros is scale 6', () => {
    expect(usdToMicros(12.345678)).toBe(12_345_678n)
    expect(usdToMicros(0.0000001)).toBeUndefined()
  })
})

describe('formatScaled / formatUsd', () => {
  test.each([
    [123n, 6, 8, '0.00012300'],
    [1_500_000n, 6, 2, '1.50'],
    [1_999_999n, 6, 2, '1.99'], // truncates, never rounds up
    [-1_234_567n, 6, 6, '-1.234567'],
    [42n, 0, 0, '42'],
    [5n, 3, 0, '0'],
  ] as const)('%p scale %p digits %p → %p', (v, scale, digits, text) => expect(formatScaled(v, scale, digits)).toBe(text))

  test('formatUsd writes micro-USD with 8 decimals and round-trips through parseDecimal', () => {
    for (const micros of [0n, 1n, 999_999n, 1_000_000n, 123_456_789n, -42n]) {
      const text = formatUsd(micros)
      expect(text).toMatch(/^-?\d+\.\d{8}$/)
      expect(parseDecimal(text, 6)).toBe(micros)
    }
  })
})

describe('ceilDiv', () => {
  test.each([
    [0n, 7n, 0n],
    [1n, 7n, 1n],
    [7n, 7n, 1n],
    [8n, 7n, 2n],
    [1_000_001n, 1_000_000n, 2n],
  ] as const)('ceil(%p / %p) = %p', (a, b, q) => expect(ceilDiv(a, b)).toBe(q))

  test('is the smallest q with q·b ≥ a', () => {
    for (let a = 0n; a < 50n; a++)
      for (const b of [1n, 3n, 10n]) {
        const q = ceilDiv(a, b)
        expect(q * b >= a).toBe(true)
        expect(q === 0n || (q - 1n) * b < a).toBe(true)
      }
  })
})
