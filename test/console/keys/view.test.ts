// A key as every listing shows it (docs/console.md "API keys"): its status from revocation and
// expiry, USD numbers, remaining never below zero, the operator's rpm when the key has none, and
// when the period of a resetting limit ends.
import { describe, expect, test } from 'bun:test'
import { keyView, settingsView } from '../../../src/console/keys/view.ts'
import type { apiKeys } from '../../../src/db/schema/index.ts'

type KeyRow = typeof apiKeys.$inferSelect
const NOW = Date.UTC(2026, 10, 27, 18, 0, 0)

const row = (o: Partial<KeyRow> = {}): KeyRow =>
  ({
    id: 'key_1',
    userId: 'usr_1',
    name: 'ci',
    keyHash: 'h',
    prefix: 'sk-abc',
    limitMicros: null,
    rpm: null,
    serviceMode: 'performance',
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    createdAt: new Date(NOW - 86_400_000),
    models: null,
    ipAllowlist: null,
    tpm: null,
    maxConcurrent: null,
    limitReset: null,
    operatorLimits: null,
    ...o,
  }) as KeyRow

describe('keyView', () => {
  test('status: revoked wins over expired; expired from the expiry instant on; else active', () => {
    expect(keyView(row(), 600, NOW, 0n).status).toBe('active')
    expect(keyView(row({ expiresAt: new Date(NOW + 1) }), 600, NOW, 0n).status).toBe('active')
    expect(keyView(row({ expiresAt: new Date(NOW) }), 600, NOW, 0n).status).toBe('expired')
    expect(keyView(row({ expiresAt: new Date(NOW - 1), revokedAt: new Date(NOW - 5) }), 600, NOW, 0n).status).toBe('revoked')
  })

  test('money in USD: limit, spent, remaining = limit − spent, never negative; null without a limit', () => {
    const v = keyView(row({ limitMicros: 5_000_000n }), 600, NOW, 1_250_000n)
    expect([v.limit, v.spent, v.remaining]).toEqual([5, 1.25, 3.75])
    expect(keyView(row({ limitMicros: 1_000_000n }), 600, NOW, 1_000_001n).remaining).toBe(0)
    const open = keyView(row(), 600, NOW, 7n)
    expect([open.limit, open.spent, open.remaining]).toEqual([null, 0.000007, null])
  })

  test("rpm is the key's own or the operator's default; dates are ISO strings or null", () => {
    expect(keyView(row(), 600, NOW, 0n).rpm).toBe(600)
    expect(keyView(row({ rpm: 20 }), 600, NOW, 0n).rpm).toBe(20)
    const used = new Date(NOW - 1000)
    const v = keyView(row({ lastUsedAt: used }), 600, NOW, 0n)
    expect([v.lastUsedAt, v.expiresAt, v.revokedAt]).toEqual([used.toISOString(), null, null])
    expect(v.createdAt).toBe(new Date(NOW - 86_400_000).toISOString())
    // The hash never leaves.
    expect(Object.keys(v)).not.toContain('keyHash')
  })
})

describe('settingsView', () => {
  test('resetsAt is the end of the current UTC period of limitReset, null without one', () => {
    expect(settingsView(row(), NOW).resetsAt).toBeNull()
    expect(settingsView(row({ limitReset: 'daily' }), NOW).resetsAt).toBe('2026-11-28T00:00:00.000Z')
    // 2026-11-27 is a Friday: the ISO week ends on Monday 2026-11-30.
    expect(settingsView(row({ limitReset: 'weekly' }), NOW).resetsAt).toBe('2026-11-30T00:00:00.000Z')
    expect(settingsView(row({ limitReset: 'monthly' }), NOW).resetsAt).toBe('2026-12-01T00:00:00.000Z')
  })

  test('the settings are shown as stored', () => {
    const s = settingsView(row({ models: ['acme/*'], ipAllowlist: ['10.0.0.0/8'], tpm: 9, maxConcurrent: 2 }), NOW)
    expect(s).toEqual({
      models: ['acme/*'],
      ipAllowlist: ['10.0.0.0/8'],
      tpm: 9,
      maxConcurrent: 2,
      limitReset: null,
      resetsAt: null,
      operatorLimits: null,
    })
    // The operator's limits, the spend limit in USD.
    expect(settingsView(row({ operatorLimits: { limitMicros: '2500000', limitReset: null, rpm: 5 } }), NOW).operatorLimits).toEqual({
      limit: 2.5,
      limitReset: null,
      rpm: 5,
    })
  })
})
