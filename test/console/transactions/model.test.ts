// Ledger entries as the user sees them (docs/api.md "Ledger"): the kinds and statuses, the
// filters of a list, and an entry's detail with its kind's extra members.
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { KINDS, STATUSES, Transaction, TransactionDetail, TransactionsQuery } from '../../../src/console/transactions/model.ts'

const entry = {
  id: 'txn_1',
  kind: 'usage',
  status: 'completed',
  amount: -0.25,
  currency: 'USD',
  method: 'api',
  reference: 'usage:req_1',
  requestId: 'req_1',
  createdAt: '2026-11-27T00:00:00.000Z',
  completedAt: null,
}

describe('Transaction', () => {
  test('the kinds and statuses of docs/api.md, USD only', () => {
    expect(KINDS).toEqual(['topup', 'usage', 'refund', 'adjustment'])
    expect(STATUSES).toEqual(['pending', 'completed', 'failed'])
    expect(KINDS.every((kind) => Value.Check(Transaction, { ...entry, kind }))).toBe(true)
    expect(Value.Check(Transaction, { ...entry, kind: 'bonus' })).toBe(false)
    expect(Value.Check(Transaction, { ...entry, status: 'cancelled' })).toBe(false)
    expect(Value.Check(Transaction, { ...entry, currency: 'EUR' })).toBe(false)
  })
  test('a detail adds the key, a note and per-kind members', () => {
    const usage = {
      ...entry,
      keyId: 'key_1',
      note: null,
      model: 'acme/a',
      usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      usageSource: 'upstream',
      refunded: 0,
    }
    expect(Value.Check(TransactionDetail, usage)).toBe(true)
    expect(Value.Check(TransactionDetail, entry)).toBe(false)
    expect(Value.Check(TransactionDetail, { ...usage, usage: { inputTokens: 1 } })).toBe(false)
  })
})

describe('TransactionsQuery', () => {
  test('filters kind and status with the page query', () => {
    expect(Value.Check(TransactionsQuery, { kind: 'topup', status: 'pending', limit: 5 })).toBe(true)
    expect(Value.Check(TransactionsQuery, { kind: 'x' })).toBe(false)
    expect(TransactionsQuery.properties.kind.error).toBe('kind must be one of: topup, usage, refund, adjustment.')
  })
})
