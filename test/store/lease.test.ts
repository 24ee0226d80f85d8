// A lease as one Redis hash value: five tab-separated fields, the record last, so the first four
// tabs split it even when the record holds tabs of its own.
import { expect, test } from 'bun:test'
import { ABANDONED_MARK_MS, leaseData } from '../../src/store/lease.ts'

const lease = (record: string) => ({ id: 'req_1', deadlineMs: 1, abandonCostMicros: 250n, abandonRecord: record })

const split = (data: string) => {
  const parts = data.split('\t')
  return [...parts.slice(0, 4), parts.slice(4).join('\t')]
}

test('user, spend key, reserve, abandon cost and record, in that order', () => {
  const data = leaseData(
    { userId: 'usr_a', keyId: 'key_a', reserveMicros: 1_000n, spendKey: 'key_a@2026-11' },
    lease('{"abandoned":"req_1"}'),
  )
  expect(split(data)).toEqual(['usr_a', 'key_a@2026-11', '1000', '250', '{"abandoned":"req_1"}'])
})

test('without a spend key the key id counts', () => {
  expect(split(leaseData({ userId: 'u', keyId: 'key_b', reserveMicros: 5n }, lease('{}')))[1]).toBe('key_b')
})

test('a record containing a tab survives the split', () => {
  const record = 'a\tb\tc'
  expect(split(leaseData({ userId: 'u', keyId: 'k', reserveMicros: 12_345_678_901_234_567_890n }, lease(record)))).toEqual([
    'u',
    'k',
    '12345678901234567890',
    '250',
    record,
  ])
})

test('an abandoned mark outlives any call: a day', () => {
  expect(ABANDONED_MARK_MS).toBe(86_400_000)
})
