import { describe, expect, test } from 'bun:test'
import { daysOf, parsePeriod } from '../../../src/admin/reports/period.ts'
import { GatewayError } from '../../../src/core/errors.ts'

const refusal = (from: string, to: string) => {
  try {
    parsePeriod(from, to)
  } catch (e) {
    return e instanceof GatewayError ? [e.code, e.extra.param] : e
  }
  return undefined
}

describe('report periods', () => {
  test('UTC days, from included and to excluded', () => {
    const p = parsePeriod('2026-02-27', '2026-03-02')
    expect(p.fromMs).toBe(Date.UTC(2026, 1, 27))
    expect(p.toMs).toBe(Date.UTC(2026, 2, 2))
    expect(daysOf(p)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01'])
  })

  test('a day that does not exist, an empty or reversed period and one over 366 days are refused naming the field', () => {
    expect(refusal('2026-02-29', '2026-03-01')).toEqual(['VALIDATION_FAILED', 'from'])
    expect(refusal('2026-03-01', '2026-3-2')).toEqual(['VALIDATION_FAILED', 'to'])
    expect(refusal('2026-03-01', '2026-03-01')).toEqual(['VALIDATION_FAILED', 'to'])
    expect(refusal('2026-03-02', '2026-03-01')).toEqual(['VALIDATION_FAILED', 'to'])
    expect(refusal('2025-01-01', '2026-01-03')).toEqual(['VALIDATION_FAILED', 'to'])
    expect(refusal('2025-01-01', '2026-01-02')).toBeUndefined()
  })

  test('days outside 1970-01-01 … 9999-12-31 are refused naming the field', () => {
    expect(refusal('0000-01-01', '0000-01-02')).toEqual(['VALIDATION_FAILED', 'from'])
    expect(refusal('1969-12-31', '1970-01-01')).toEqual(['VALIDATION_FAILED', 'from'])
    expect(refusal('1970-01-01', '1970-01-02')).toBeUndefined()
    expect(refusal('9999-12-30', '9999-12-31')).toBeUndefined()
  })
})
