// Rate-limit headers (docs/api.md "Rate windows"): seconds rounded up, at least 1; Retry-After only
// on a refusal; the token window only for a key with a tpm.
import { describe, expect, test } from 'bun:test'
import { rateHeaders } from '../../src/http/rate-headers.ts'

describe('rateHeaders', () => {
  test('the request window, reset in whole seconds rounded up', () => {
    expect(rateHeaders({ limit: 60, remaining: 59, resetMs: 12_001 })).toEqual({
      'ratelimit-limit': '60',
      'ratelimit-remaining': '59',
      'ratelimit-reset': '13',
    })
  })

  test('a reset under a second reads 1, never 0', () => {
    expect(rateHeaders({ limit: 1, remaining: 0, resetMs: 0 })['ratelimit-reset']).toBe('1')
    expect(rateHeaders({ limit: 1, remaining: 0, resetMs: 1 })['ratelimit-reset']).toBe('1')
  })

  test('a refusal adds Retry-After equal to the reset', () => {
    const h = rateHeaders({ limit: 10, remaining: 0, resetMs: 4_500 }, true)
    expect(h['retry-after']).toBe('5')
    expect(h['ratelimit-reset']).toBe('5')
  })

  test('a token window adds the x-ratelimit-*-tokens headers', () => {
    const h = rateHeaders({ limit: 10, remaining: 3, resetMs: 30_000 }, false, { limit: 50_000, remaining: 1_234, resetMs: 2_200 })
    expect(h).toMatchObject({
      'x-ratelimit-limit-tokens': '50000',
      'x-ratelimit-remaining-tokens': '1234',
      'x-ratelimit-reset-tokens': '3',
    })
    expect(h['retry-after']).toBeUndefined()
    expect(Object.keys(rateHeaders({ limit: 1, remaining: 1, resetMs: 1 })).some((k) => k.endsWith('-tokens'))).toBe(false)
  })
})
