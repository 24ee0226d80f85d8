// An admission's answer from the script's status and the windows' counts (lua/admit.lua codes).
import { describe, expect, test } from 'bun:test'
import {
  ADMITTED,
  admitResult,
  BALANCE_SHORT,
  COLD,
  KEY_LIMIT_SHORT,
  OVER_CONCURRENCY,
  OVER_TPM,
  RATE_LIMITED,
} from '../../src/store/admit-result.ts'
import type { AdmitInput } from '../../src/store/types.ts'

const NOW = 1_800_000_012_345 // 12 345 ms into a window (windows start at multiples of 60 000)
const input = (o: Partial<AdmitInput> = {}): AdmitInput => ({
  userId: 'u',
  keyId: 'k',
  rpm: 60,
  nowMs: NOW,
  reserveMicros: 1n,
  keyLimitMicros: null,
  ...o,
})
const resetMs = 60_000 - (NOW % 60_000)

describe('admitResult', () => {
  test('admitted: remaining is rpm less the count after the call; reset is the window’s rest', () => {
    expect(admitResult(input(), ADMITTED, 10, 0)).toEqual({ ok: true, rate: { limit: 60, remaining: 50, resetMs } })
    expect(resetMs).toBe(47_655)
  })

  test('remaining never goes below zero', () => {
    expect(admitResult(input({ rpm: 5 }), ADMITTED, 9, 0)).toMatchObject({ rate: { remaining: 0 } })
  })

  test('rate limited: remaining 0 whatever the count', () => {
    expect(admitResult(input(), RATE_LIMITED, 3, 0)).toEqual({ ok: false, reason: 'rate', rate: { limit: 60, remaining: 0, resetMs } })
  })

  test.each([
    [BALANCE_SHORT, 'balance'],
    [KEY_LIMIT_SHORT, 'key_limit'],
    [OVER_TPM, 'tpm'],
    [OVER_CONCURRENCY, 'concurrency'],
  ] as const)('status %p is refused as %p with the request window as counted before it', (status, reason) => {
    expect(admitResult(input(), status, 20, 0)).toEqual({ ok: false, reason, rate: { limit: 60, remaining: 40, resetMs } })
  })

  test('cold carries no window', () => {
    expect(admitResult(input({ tpm: 100 }), COLD, 0, 0)).toEqual({ ok: false, reason: 'cold' })
  })

  test('a key with a tpm gets its token window; one without gets none', () => {
    expect(admitResult(input({ tpm: 1_000 }), ADMITTED, 1, 750)).toEqual({
      ok: true,
      rate: { limit: 60, remaining: 59, resetMs },
      tokens: { limit: 1_000, remaining: 250, resetMs },
    })
    expect(admitResult(input({ tpm: 1_000 }), OVER_TPM, 1, 1_200)).toMatchObject({ tokens: { remaining: 0 } })
    expect('tokens' in admitResult(input({ tpm: null }), ADMITTED, 1, 750)).toBe(false)
  })

  test('an unknown status is an error, never a silent admission', () => {
    expect(() => admitResult(input(), 7, 1, 0)).toThrow('admit: unknown status 7')
  })
})
