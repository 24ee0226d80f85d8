// The checked read of one stream event's JSON that every wire module stands on: a value, the
// [DONE] sentinel or a typed failure, never an exception.
import { describe, expect, test } from 'bun:test'
import { DONE, memberIs, readEventObject } from '../../src/lib/wire.ts'

describe('readEventObject', () => {
  test('an object, the sentinel, and each kind of failure', () => {
    expect(readEventObject('{"a":1}')).toEqual({ ok: true, value: { a: 1 } })
    expect(readEventObject('[DONE]')).toEqual({ ok: true, value: DONE })
    const reason = (d: string) => {
      const r = readEventObject(d)
      return r.ok ? 'ok' : r.failure.reason
    }
    expect(['{"a":', '', 'nope', '{"a":1}}'].map(reason)).toEqual(['not_json', 'not_json', 'not_json', 'not_json'])
    expect(['[]', 'null', '1', '"s"', 'true'].map(reason)).toEqual(Array(5).fill('not_object'))
  })

  test('memberIs: absent and null pass; a present member must be of its kind', () => {
    const o = { a: [1], o: {}, s: 's', n: 1, z: null }
    expect([memberIs(o, 'a', 'array'), memberIs(o, 'o', 'object'), memberIs(o, 's', 'string'), memberIs(o, 'n', 'number')]).toEqual([
      true,
      true,
      true,
      true,
    ])
    expect([memberIs(o, 'missing', 'array'), memberIs(o, 'z', 'object')]).toEqual([true, true])
    expect([memberIs(o, 'a', 'object'), memberIs(o, 'o', 'array'), memberIs(o, 's', 'number'), memberIs(o, 'n', 'string')]).toEqual([
      false,
      false,
      false,
      false,
    ])
  })
})
