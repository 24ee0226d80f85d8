// What a mirror reload reads of an outbox record: the call when it bills this user a cost above
// zero; anything else, or anything unreadable, is nothing.
import { describe, expect, test } from 'bun:test'
import { outboxCallOf } from '../../src/store/outbox-call.ts'

const rec = (o: Record<string, unknown>) => JSON.stringify({ requestId: 'req_1', userId: 'usr_a', keyId: 'key_a', cost: '1500', ...o })

describe('outboxCallOf', () => {
  test('a billed call of the user', () => {
    expect(outboxCallOf(rec({}), 'usr_a')).toEqual({ requestId: 'req_1', keyId: 'key_a', costMicros: 1_500n })
  })

  test('a cost beyond 2^53 stays exact', () => {
    expect(outboxCallOf(rec({ cost: '90071992547409931234' }), 'usr_a')?.costMicros).toBe(90_071_992_547_409_931_234n)
  })

  test('another user’s record, even one whose text mentions this user, is nothing', () => {
    expect(outboxCallOf(rec({ userId: 'usr_b' }), 'usr_a')).toBeUndefined()
    expect(outboxCallOf(rec({ userId: 'usr_b', note: '"userId":"usr_a"' }), 'usr_a')).toBeUndefined()
    expect(outboxCallOf(rec({}), 'usr_a_longer')).toBeUndefined()
  })

  test.each([
    ['a zero cost', { cost: '0' }],
    ['a negative cost', { cost: '-5' }],
    ['a cost as a number', { cost: 1500 }],
    ['a decimal cost', { cost: '1.5' }],
    ['no request id', { requestId: undefined }],
    ['a key id that is not text', { keyId: 3 }],
  ])('%s is nothing', (_, o) => expect(outboxCallOf(rec(o), 'usr_a')).toBeUndefined())

  test('unparsable text naming the user is nothing, not an error', () => {
    expect(outboxCallOf('{"userId":"usr_a", broken', 'usr_a')).toBeUndefined()
  })
})
