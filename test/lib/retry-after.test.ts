// How long an answer asks the caller to wait: retry-after-ms over Retry-After (seconds or an HTTP-date).
import { describe, expect, test } from 'bun:test'
import { retryAfterMs } from '../../src/lib/retry-after.ts'

const NOW = Date.parse('2026-01-01T00:00:00Z')
const h = (init: Record<string, string>) => new Headers(init)

describe('retryAfterMs', () => {
  test('retry-after-ms wins and is rounded up', () => {
    expect(retryAfterMs(h({ 'retry-after-ms': '1500.2', 'retry-after': '9' }), NOW)).toBe(1501)
  })
  test('Retry-After in seconds, fractional allowed', () => {
    expect(retryAfterMs(h({ 'retry-after': '3' }), NOW)).toBe(3000)
    expect(retryAfterMs(h({ 'retry-after': '0.25' }), NOW)).toBe(250)
  })
  test('an unreadable retry-after-ms falls back to Retry-After', () => {
    expect(retryAfterMs(h({ 'retry-after-ms': 'soon', 'retry-after': '2' }), NOW)).toBe(2000)
  })
  test('an HTTP-date is measured from now; one in the past is 0', () => {
    expect(retryAfterMs(h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), NOW)).toBe(3000)
    expect(retryAfterMs(h({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), NOW)).toBe(0)
  })
  test.each([{}, { 'retry-after': '' }, { 'retry-after': '-3' }, { 'retry-after': 'later' }, { 'retry-after-ms': '-5' }])(
    '%p counts as absent',
    (init) => expect(retryAfterMs(h(init as Record<string, string>), NOW)).toBeUndefined(),
  )
})
