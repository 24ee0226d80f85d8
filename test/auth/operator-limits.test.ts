// Limits an operator set on a key (src/auth/operator-limits.ts; docs/console.md "API keys"): what
// an admin write makes the operator's, and which owner changes tighten rather than loosen.
import { describe, expect, test } from 'bun:test'
import { checkOwnerPatch, type LimitValues, operatorLimitsAfter } from '../../src/auth/operator-limits.ts'
import { GatewayError } from '../../src/core/errors.ts'

const NONE: LimitValues = {
  limitMicros: null,
  rpm: null,
  tpm: null,
  maxConcurrent: null,
  expiresAt: null,
  models: null,
  ipAllowlist: null,
  limitReset: null,
}

const refusal = (f: () => void) => {
  try {
    f()
  } catch (e) {
    return e instanceof GatewayError ? [e.code, e.extra.param] : e
  }
  return undefined
}

describe('operator limits', () => {
  test('a creation locks what it set; a spend limit locks its period, lifetime included', () => {
    expect(operatorLimitsAfter(null, { name: 'x' }, NONE)).toBeNull()
    expect(operatorLimitsAfter(null, { limit: 5, maxConcurrent: 2 }, { ...NONE, limitMicros: 5_000_000n, maxConcurrent: 2 })).toEqual({
      limitMicros: '5000000',
      limitReset: null,
      maxConcurrent: 2,
    })
  })

  test('a PATCH: a value locks, null unlocks, absence keeps; clearing the limit frees its period', () => {
    const before = { limitMicros: '5000000', limitReset: 'weekly' as const, rpm: 100, models: ['acme/*'] }
    const row = { ...NONE, limitMicros: 5_000_000n, limitReset: 'weekly' as const, rpm: 100, tpm: 9, models: ['acme/*'] }
    expect(operatorLimitsAfter(before, { tpm: 9, rpm: null }, { ...row, rpm: null })).toEqual({
      limitMicros: '5000000',
      limitReset: 'weekly',
      tpm: 9,
      models: ['acme/*'],
    })
    expect(operatorLimitsAfter(before, { limit: null }, { ...row, limitMicros: null })).toEqual({ rpm: 100, models: ['acme/*'] })
    expect(operatorLimitsAfter({ rpm: 1 }, { rpm: null }, NONE)).toBeNull()
  })

  test.each([
    [{ limit: 4.99 }, undefined],
    [{ limit: 5.01 }, 'limit'],
    [{ limit: null }, 'limit'],
    [{ limitReset: null }, undefined],
    [{ limitReset: 'monthly' }, undefined],
    [{ limitReset: 'daily' }, 'limitReset'],
    [{ rpm: 100 }, undefined],
    [{ rpm: 101 }, 'rpm'],
    [{ expiresAt: '2030-01-01T00:00:00Z' }, undefined],
    [{ expiresAt: '2030-01-02T00:00:01Z' }, 'expiresAt'],
    [{ expiresAt: null }, 'expiresAt'],
    [{ models: ['acme/chat-*', 'acme/x'] }, undefined],
    [{ models: ['acme*'] }, 'models'],
    [{ models: ['*/chat'] }, 'models'],
    [{ ipAllowlist: ['10.2.0.0/16', '10.0.0.1'] }, undefined],
    [{ ipAllowlist: ['10.0.0.0/7'] }, 'ipAllowlist'],
    [{ ipAllowlist: ['::ffff:10.0.0.1'] }, undefined],
    [{ ipAllowlist: ['fd00::1'] }, 'ipAllowlist'],
    [{ name: 'anything', tpm: 1_000_000 }, undefined],
  ] as [Record<string, unknown>, string | undefined][])('%p → %p', (patch, field) => {
    const limits = {
      limitMicros: '5000000',
      limitReset: 'weekly' as const,
      rpm: 100,
      expiresAt: '2030-01-02T00:00:00.000Z',
      models: ['acme/*'],
      ipAllowlist: ['10.0.0.0/8'],
    }
    expect(refusal(() => checkOwnerPatch(limits, patch))).toEqual(field === undefined ? undefined : ['FORBIDDEN', field])
  })
})
