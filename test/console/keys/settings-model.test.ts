// The key settings' wire members (docs/api.md "Key settings"), shared by the console and the admin
// API: bounds per member, null clears, and the listing's members including resetsAt.
import { describe, expect, test } from 'bun:test'
import { t } from 'elysia'
import { Value } from '@sinclair/typebox/value'
import { LIMIT_RESETS } from '../../../src/billing/spend-period.ts'
import { KeySettingsFields, KeySettingsView } from '../../../src/console/keys/settings-model.ts'

const Fields = t.Object(KeySettingsFields)
const View = t.Object(KeySettingsView)

describe('KeySettingsFields', () => {
  test('absent or null is accepted for every member', () => {
    expect(Value.Check(Fields, {})).toBe(true)
    expect(Value.Check(Fields, { models: null, ipAllowlist: null, tpm: null, maxConcurrent: null, limitReset: null })).toBe(true)
  })
  test('lists: at most 100 entries of bounded length', () => {
    expect(Value.Check(Fields, { models: Array.from({ length: 100 }, (_, i) => `m/${i}`) })).toBe(true)
    expect(Value.Check(Fields, { models: Array.from({ length: 101 }, (_, i) => `m/${i}`) })).toBe(false)
    expect(Value.Check(Fields, { models: ['x'.repeat(201)] })).toBe(false)
    expect(Value.Check(Fields, { ipAllowlist: ['x'.repeat(65)] })).toBe(false)
  })
  test('numbers: tpm 1..1e9, maxConcurrent 1..100,000; limitReset one of the periods', () => {
    expect(Value.Check(Fields, { tpm: 1_000_000_000, maxConcurrent: 100_000 })).toBe(true)
    expect(Value.Check(Fields, { tpm: 1_000_000_001 })).toBe(false)
    expect(Value.Check(Fields, { maxConcurrent: 0 })).toBe(false)
    expect(LIMIT_RESETS.every((r) => Value.Check(Fields, { limitReset: r }))).toBe(true)
    expect(Value.Check(Fields, { limitReset: 'yearly' })).toBe(false)
    expect((KeySettingsFields.limitReset as any).anyOf[0].error).toBe('limitReset must be one of: daily, weekly, monthly.')
  })
})

describe('KeySettingsView', () => {
  test('every member is present in a listing (null when unset)', () => {
    const unset = {
      models: null,
      ipAllowlist: null,
      tpm: null,
      maxConcurrent: null,
      limitReset: null,
      resetsAt: null,
      operatorLimits: null,
    }
    expect(Value.Check(View, unset)).toBe(true)
    const { resetsAt: _, ...withoutResetsAt } = unset
    expect(Value.Check(View, withoutResetsAt)).toBe(false)
  })
})
