// How numbers and times read in the console: dollars with cents (sub-cent to 6 decimals), signs
// always visible, one UTC time format, prices per 1M, context windows in K/M tokens.
import { describe, expect, test } from 'bun:test'
import { contextWindow, day, int, perMillion, signedUsd, usd, when } from '../../../src/console-ui/client/format.ts'

describe('money', () => {
  test.each([
    [10, '$10.00'],
    [0, '$0.00'],
    [0.000221, '$0.000221'],
    [0.0000004, '$0.00'],
    [1234567.5, '$1,234,567.50'],
  ])('usd(%p) = %p', (n, text) => expect(usd(n)).toBe(text))

  test.each([
    [10, '+$10.00'],
    [-0.000221, '−$0.000221'],
    [0, '$0.00'],
  ])('signedUsd(%p) = %p (a true minus sign)', (n, text) => expect(signedUsd(n)).toBe(text))

  test('per 1M tokens, or — without a price (0 is a price)', () => {
    expect(perMillion(0.15)).toBe('$0.15')
    expect(perMillion(0)).toBe('$0.00')
    expect(perMillion(null)).toBe('—')
    expect(perMillion(undefined)).toBe('—')
  })

  test('whole numbers are grouped', () => {
    expect(int(1234567)).toBe('1,234,567')
    expect(int(12)).toBe('12')
  })
})

describe('times', () => {
  test('one UTC format whatever the offset given', () => {
    expect(when('2026-11-24T16:40:59Z')).toBe('2026-11-24 16:40 UTC')
    expect(when('2026-11-24T23:30:00-02:00')).toBe('2026-11-25 01:30 UTC')
  })
  test('nothing reads as —', () => {
    expect(when(null)).toBe('—')
    expect(when(undefined)).toBe('—')
    expect(when('')).toBe('—')
  })
  test('day is the date part', () => expect(day('2026-02-03T04:05:06Z')).toBe('2026-02-03'))
})

describe('contextWindow', () => {
  test.each([
    [512, '512 tokens'],
    [8_192, '8K tokens'],
    [128_000, '128K tokens'],
    [1_000_000, '1M tokens'],
    [1_048_576, '1M tokens'],
    [2_500_000, '2.5M tokens'],
  ])('%p → %p', (n, text) => expect(contextWindow(n)).toBe(text))
})
