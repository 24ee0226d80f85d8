// API key models (docs/console.md "API keys"): creation and PATCH take the same members, each
// optional, null clearing; the secret is a member of the creation answer only.
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { CreatedKey, CreateKey, KeyView, SERVICE_MODES, UpdateKey } from '../../../src/console/keys/model.ts'

const view = {
  id: 'key_1',
  name: 'ci',
  prefix: 'sk-abc',
  status: 'active',
  limit: null,
  spent: 0,
  remaining: null,
  rpm: 600,
  serviceMode: 'performance',
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
  createdAt: '2026-11-27T00:00:00.000Z',
  models: null,
  ipAllowlist: null,
  tpm: null,
  maxConcurrent: null,
  limitReset: null,
  resetsAt: null,
  operatorLimits: null,
}

describe('CreateKey / UpdateKey', () => {
  test('every member is optional; null clears the nullable ones', () => {
    expect(Value.Check(CreateKey, {})).toBe(true)
    expect(Value.Check(CreateKey, { limit: null, rpm: null, expiresAt: null, models: null, limitReset: null })).toBe(true)
    expect(UpdateKey).toBe(CreateKey)
  })
  test('bounds: limit 0..1,000,000 USD, rpm ≥ 1, name ≤ 100, a known service mode and limitReset', () => {
    expect(Value.Check(CreateKey, { limit: 0 })).toBe(true)
    expect(Value.Check(CreateKey, { limit: 1_000_000 })).toBe(true)
    expect(Value.Check(CreateKey, { limit: 1_000_000.01 })).toBe(false)
    expect(Value.Check(CreateKey, { limit: -1 })).toBe(false)
    expect(Value.Check(CreateKey, { rpm: 0 })).toBe(false)
    expect(Value.Check(CreateKey, { name: 'x'.repeat(101) })).toBe(false)
    expect(SERVICE_MODES.every((m) => Value.Check(CreateKey, { serviceMode: m }))).toBe(true)
    expect(Value.Check(CreateKey, { serviceMode: 'turbo' })).toBe(false)
    expect(Value.Check(CreateKey, { limitReset: 'hourly' })).toBe(false)
  })
})

describe('KeyView / CreatedKey', () => {
  test('a listing has no secret; the creation answer is the listing plus the secret', () => {
    expect(Value.Check(KeyView, view)).toBe(true)
    expect(Object.keys(KeyView.properties)).not.toContain('key')
    expect(Value.Check(CreatedKey, view)).toBe(false)
    expect(Value.Check(CreatedKey, { ...view, key: 'sk-secret' })).toBe(true)
  })
  test('status is one of active, revoked, expired', () => {
    expect(['active', 'revoked', 'expired', 'paused'].map((status) => Value.Check(KeyView, { ...view, status }))).toEqual([
      true,
      true,
      true,
      false,
    ])
  })
})
