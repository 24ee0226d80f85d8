// The console's shared models (docs/console.md "Conventions"): the page query's bounds and its
// messages, the `{ items, nextCursor }` shape, nullable members, and string unions whose message
// lists the allowed values.
import { describe, expect, test } from 'bun:test'
import { t } from 'elysia'
import { Value } from '@sinclair/typebox/value'
import { MAX_PAGE } from '../../../src/console/http/pagination.ts'
import { Nullable, OneOf, PageQuery, pageOf } from '../../../src/console/http/models.ts'

describe('PageQuery', () => {
  const Q = t.Object(PageQuery)
  test('limit 1..MAX_PAGE, cursor at most 200 characters, both optional', () => {
    expect(Value.Check(Q, {})).toBe(true)
    expect(Value.Check(Q, { limit: 1, cursor: 'x'.repeat(200) })).toBe(true)
    expect(Value.Check(Q, { limit: MAX_PAGE })).toBe(true)
    expect(Value.Check(Q, { limit: MAX_PAGE + 1 })).toBe(false)
    expect(Value.Check(Q, { limit: 0 })).toBe(false)
    expect(Value.Check(Q, { limit: 1.5 })).toBe(false)
    expect(Value.Check(Q, { cursor: 'x'.repeat(201) })).toBe(false)
  })
  test('its refusals say what is allowed', () => {
    expect(PageQuery.limit.error).toBe(`limit must be an integer from 1 to ${MAX_PAGE}.`)
    expect(PageQuery.cursor.error).toBe('cursor is not a cursor this API returned.')
  })
})

describe('pageOf, Nullable, OneOf', () => {
  test('a page is items of the model and a string or null cursor', () => {
    const P = pageOf(t.Object({ id: t.String() }))
    expect(Value.Check(P, { items: [{ id: 'a' }], nextCursor: null })).toBe(true)
    expect(Value.Check(P, { items: [], nextCursor: 'c1' })).toBe(true)
    expect(Value.Check(P, { items: [{ id: 1 }], nextCursor: null })).toBe(false)
    expect(Value.Check(P, { items: [] })).toBe(false)
  })
  test('Nullable admits the value or null only', () => {
    const N = Nullable(t.String())
    expect(['a', null, 1, undefined].map((v) => Value.Check(N, v))).toEqual([true, true, false, false])
  })
  test('OneOf admits exactly its values, and its message names them', () => {
    const S = OneOf('sort', ['a', 'b'] as const, { description: 'd' })
    expect(['a', 'b', 'c', 'A', 1].map((v) => Value.Check(S, v))).toEqual([true, true, false, false, false])
    expect((S as any).error).toBe('sort must be one of: a, b.')
    expect((S as any).description).toBe('d')
  })
  test('an absent optional OneOf query parameter stays absent (unlike t.UnionEnum)', () => {
    const Q = t.Object({ status: t.Optional(OneOf('status', ['x', 'y'] as const)) })
    expect(Value.Default(Q, {})).toEqual({})
  })
})
