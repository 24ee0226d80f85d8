// What a ledger-writer batch adds up to: the usage entry per account (only calls that cost
// anything), key spend and last use, and the report rollups per UTC day.
import { describe, expect, test } from 'bun:test'
import { type BatchCall, tallyBatch, utcDay } from '../../src/billing/batch-tally.ts'
import type { OutboxRecord } from '../../src/billing/outbox-record.ts'
import { usageRecord } from '../helpers/records.ts'

const DAY = Date.UTC(2026, 10, 27)

const call = (over: Partial<OutboxRecord> & Pick<OutboxRecord, 'userId' | 'keyId'>, cost: bigint): BatchCall => ({
  record: usageRecord({ requestId: `req_${crypto.randomUUID()}`, cost: String(cost), at: DAY + 1_000, ...over }),
  cost,
})

describe('tallyBatch', () => {
  test('one entry per account, of the calls that cost anything; their first and last receipt', () => {
    const t = tallyBatch([
      call({ userId: 'usr_a', keyId: 'key_a1', at: DAY + 5 }, 100n),
      call({ userId: 'usr_b', keyId: 'key_b', at: DAY + 1 }, 7n),
      call({ userId: 'usr_a', keyId: 'key_a1', at: DAY + 9 }, 0n),
      call({ userId: 'usr_a', keyId: 'key_a2', at: DAY + 2 }, 250n),
    ])
    expect(t.billed).toBe(3)
    expect(t.entries).toEqual([
      { userId: 'usr_a', amount: -350n, calls: 2, fromMs: DAY + 2, toMs: DAY + 5 },
      { userId: 'usr_b', amount: -7n, calls: 1, fromMs: DAY + 1, toMs: DAY + 1 },
    ])
  })

  test('a batch of free calls bills nothing and has no entry, but keys are still marked used', () => {
    const t = tallyBatch([call({ userId: 'usr_a', keyId: 'key_a', at: DAY + 3 }, 0n)])
    expect(t.billed).toBe(0)
    expect(t.entries).toEqual([])
    expect(t.keys).toEqual([{ keyId: 'key_a', spent: 0n, lastMs: DAY + 3 }])
  })

  test('key spend counts the calls that cost anything; last use is the latest receipt', () => {
    const t = tallyBatch([
      call({ userId: 'usr_a', keyId: 'key_a', at: DAY + 8 }, 40n),
      call({ userId: 'usr_a', keyId: 'key_a', at: DAY + 4 }, 2n),
      call({ userId: 'usr_a', keyId: 'key_a', at: DAY + 9 }, -5n),
    ])
    expect(t.keys).toEqual([{ keyId: 'key_a', spent: 42n, lastMs: DAY + 9 }])
  })

  test('request_daily per UTC day, user, model and gateway (none as empty); errors are calls with a fault', () => {
    const usage = { inputTokens: 3, outputTokens: 4, cacheReadTokens: 5, cacheWriteTokens: 6, reasoningTokens: 1 }
    const t = tallyBatch([
      call({ userId: 'usr_a', keyId: 'key_a', usage }, 10n),
      call({ userId: 'usr_a', keyId: 'key_a', usage, fault: 'upstream', status: 502 }, 0n),
      call({ userId: 'usr_a', keyId: 'key_a', usage, gateway: null, fault: 'tollgate', status: 503 }, 0n),
      call({ userId: 'usr_a', keyId: 'key_a', usage, at: DAY - 1 }, 1n),
      call({ userId: 'usr_a', keyId: 'key_a', usage, model: 'acme/other', status: 499 }, 2n),
    ])
    const row = (d: number, model: string, gateway: string) =>
      t.daily.find((r) => r.day === d && r.model === model && r.gateway === gateway)
    expect(t.daily).toHaveLength(4)
    expect(row(utcDay(DAY), 'acme/chat-1', 'gw-a')).toEqual({
      day: utcDay(DAY),
      userId: 'usr_a',
      model: 'acme/chat-1',
      gateway: 'gw-a',
      calls: 2,
      errors: 1,
      cost: 10n,
      inputTokens: 6,
      outputTokens: 8,
      cacheReadTokens: 10,
      cacheWriteTokens: 12,
    })
    expect(row(utcDay(DAY), 'acme/chat-1', '')).toMatchObject({ calls: 1, errors: 1, cost: 0n })
    expect(row(utcDay(DAY) - 1, 'acme/chat-1', 'gw-a')).toMatchObject({ calls: 1, errors: 0, cost: 1n })
    // A client's cancellation (499, no fault) is a call, not an error.
    expect(row(utcDay(DAY), 'acme/other', 'gw-a')).toMatchObject({ calls: 1, errors: 0, cost: 2n })
  })

  test('latency per UTC day, model and exact latency', () => {
    const t = tallyBatch([
      call({ userId: 'usr_a', keyId: 'key_a', latencyMs: 12 }, 1n),
      call({ userId: 'usr_b', keyId: 'key_b', latencyMs: 12 }, 1n),
      call({ userId: 'usr_a', keyId: 'key_a', latencyMs: 900 }, 1n),
    ])
    expect(t.latency).toEqual([
      { day: utcDay(DAY), model: 'acme/chat-1', latencyMs: 12, calls: 2 },
      { day: utcDay(DAY), model: 'acme/chat-1', latencyMs: 900, calls: 1 },
    ])
  })

  test('utcDay: days since 1970-01-01 in UTC', () => {
    expect(utcDay(0)).toBe(0)
    expect(utcDay(DAY)).toBe(utcDay(DAY + 86_399_999))
    expect(utcDay(DAY) - utcDay(DAY - 1)).toBe(1)
    expect(new Date(utcDay(DAY) * 86_400_000).toISOString()).toBe('2026-11-27T00:00:00.000Z')
  })
})
