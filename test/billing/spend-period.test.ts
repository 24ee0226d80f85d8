import { describe, expect, test } from 'bun:test'
import { spendKey, spendPeriod } from '../../src/billing/spend-period.ts'

const at = (iso: string) => Date.parse(iso)
const period = (p: { startMs: number; endMs: number }) => [new Date(p.startMs).toISOString(), new Date(p.endMs).toISOString()]

describe('spend periods (UTC)', () => {
  test('daily: midnight to midnight UTC', () => {
    expect(period(spendPeriod('daily', at('2026-03-31T23:59:59.999Z')))).toEqual(['2026-03-31T00:00:00.000Z', '2026-04-01T00:00:00.000Z'])
  })

  test('weekly: from Monday 00:00 UTC; a Sunday belongs to the week that began six days before', () => {
    expect(period(spendPeriod('weekly', at('2026-11-26T10:00:00Z')))).toEqual(['2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'])
    expect(period(spendPeriod('weekly', at('2026-11-29T23:00:00Z')))).toEqual(['2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'])
    expect(period(spendPeriod('weekly', at('2026-11-30T00:00:00Z')))[0]).toBe('2026-11-30T00:00:00.000Z')
  })

  test('monthly: from the 1st; December rolls into the next year; February of a leap year', () => {
    expect(period(spendPeriod('monthly', at('2026-12-15T00:00:00Z')))).toEqual(['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'])
    expect(period(spendPeriod('monthly', at('2028-02-29T12:00:00Z')))).toEqual(['2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'])
  })

  test('spendKey: the key id for a lifetime limit; key id and period start for one that resets', () => {
    expect(spendKey('key_a', null, at('2026-11-26T10:00:00Z'))).toBe('key_a')
    expect(spendKey('key_a', 'daily', at('2026-11-26T10:00:00Z'))).toBe(`key_a@${at('2026-11-26T00:00:00Z')}`)
    expect(spendKey('key_a', 'daily', at('2026-11-27T00:00:00Z'))).not.toBe(spendKey('key_a', 'daily', at('2026-11-26T23:59:59Z')))
  })
})
