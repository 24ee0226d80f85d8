// The ledger writer writes a record as it is when sanitising would change nothing, and the
// sanitised copy otherwise: both must always give Postgres the same record.
import { describe, expect, test } from 'bun:test'
import {
  decodeRecord,
  encodeRecord,
  isSanitized,
  MAX_FIELD_CHARS,
  sanitizedRecord,
  sanitizeRecord,
  type OutboxRecord,
} from '../../src/billing/outbox-record.ts'

const CLEAN: OutboxRecord = {
  v: 1,
  requestId: 'req_abcdefghijklmnopqrstuvwx',
  userId: 'usr_abcdefghijklmnopqrst',
  keyId: 'key_abcdefghijklmnopqrst',
  model: 'acme/chat-1 😀',
  gateway: 'gw-a',
  protocol: 'openai-chat',
  stream: true,
  status: 200,
  errorCode: null,
  usage: { inputTokens: 12, outputTokens: 34, cacheReadTokens: 0, cacheWriteTokens: 5, reasoningTokens: 2 },
  cost: '123456789012345678901',
  usageSource: 'upstream',
  latencyMs: 17,
  at: 1_764_000_000_123,
}

/** Each variant changes one thing sanitizeRecord acts on (or might). */
const VARIANTS: [string, (r: Record<string, any>) => void][] = [
  ['clean', () => {}],
  ['model chain', (r) => (r.chain = 'acme/a,acme/b')],
  ['model chain with NUL', (r) => (r.chain = 'acme/a\u0000,acme/b')],
  ['gateway null', (r) => (r.gateway = null)],
  ['gateway missing', (r) => delete r.gateway],
  ['errorCode set', (r) => (r.errorCode = 'UPSTREAM_ERROR')],
  ['NUL in model', (r) => (r.model = 'a\u0000b')],
  ['lone surrogate in keyId', (r) => (r.keyId = 'k\ud800')],
  ['surrogate pair in userId', (r) => (r.userId = 'u😀')],
  ['model too long', (r) => (r.model = 'm'.repeat(MAX_FIELD_CHARS + 1))],
  ['model at the limit', (r) => (r.model = 'm'.repeat(MAX_FIELD_CHARS))],
  ['status as text', (r) => (r.status = '200')],
  ['status fractional', (r) => (r.status = 200.5)],
  ['status above int4', (r) => (r.status = 2 ** 31)],
  ['negative tokens', (r) => (r.usage.inputTokens = -3)],
  ['usage missing a count', (r) => delete r.usage.reasoningTokens],
  ['usage with an extra member', (r) => (r.usage.extra = 1)],
  ['usage null', (r) => (r.usage = null)],
  ['stream as text', (r) => (r.stream = 'true')],
  ['stream false', (r) => (r.stream = false)],
  ['latency fractional', (r) => (r.latencyMs = 3.7)],
  ['at fractional', (r) => (r.at = 1.5)],
  ['at missing', (r) => delete r.at],
  ['extra member', (r) => (r.extra = 'x')],
  ['cost missing', (r) => delete r.cost],
  ['cost missing, extra member', (r) => ((r.extra = 'x'), delete r.cost)],
  ['requestId a number', (r) => (r.requestId = 7)],
  ['usageSource a number', (r) => (r.usageSource = 5)],
  ['usageSource null', (r) => (r.usageSource = null)],
  ['usageSource missing', (r) => delete r.usageSource],
]

const variant = (change: (r: Record<string, any>) => void): OutboxRecord => {
  const r = structuredClone(CLEAN) as Record<string, any>
  change(r)
  return r as OutboxRecord
}

describe('outbox record text for the ledger writer', () => {
  test('isSanitized is true exactly when sanitizeRecord changes nothing', () => {
    for (const [name, change] of VARIANTS) {
      const r = variant(change)
      expect({ name, clean: isSanitized(r) }).toEqual({ name, clean: Bun.deepEquals(sanitizeRecord(r), r, true) })
    }
    expect(isSanitized(CLEAN)).toBe(true)
    expect(isSanitized(variant((r) => (r.model = 'a\u0000b')))).toBe(false)
  })

  test('what is written is the sanitised record; a clean record is written as it is, not copied', () => {
    for (const [name, change] of VARIANTS) {
      const r = variant(change)
      const written = sanitizedRecord(r)
      expect({ name, written }).toEqual({ name, written: sanitizeRecord(r) })
      expect({ name, same: written === r }).toEqual({ name, same: isSanitized(r) })
    }
  })

  test('how the record text spells a value does not matter (escapes, number spellings)', () => {
    const raw = encodeRecord(CLEAN)
    for (const odd of [
      raw.replace('"status":200', '"status":200.0'),
      raw.replace('"status":200', '"status":2e2'),
      raw.replace('"latencyMs":17', '"latencyMs":17E0'),
      raw.replace('"model":"acme/chat-1 😀"', '"model":"acme/chat-1 \\ud83d\\ude00"'),
    ]) {
      expect(odd).not.toBe(raw)
      const r = decodeRecord(odd)!
      expect(isSanitized(r)).toBe(true)
      expect(sanitizedRecord(r)).toEqual(CLEAN)
    }
  })
})
