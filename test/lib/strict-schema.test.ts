import { describe, expect, test } from 'bun:test'
import { Type as t } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { strictSchema } from '../../src/lib/strict-schema.ts'

describe('strict schema', () => {
  const Loose = t.Object({
    a: t.String(),
    nested: t.Optional(t.Object({ b: t.Number() })),
    list: t.Optional(t.Array(t.Object({ c: t.Boolean() }))),
    either: t.Optional(t.Union([t.Object({ d: t.Literal('default') }), t.Null()])),
    open: t.Optional(t.Object({ e: t.String() }, { additionalProperties: true })),
  })
  const Strict = strictSchema(Loose)

  test('every object, however deep, refuses undeclared members', () => {
    expect(Value.Check(Strict, { a: 'x', nested: { b: 1 }, list: [{ c: true }], either: { d: 'default' } })).toBe(true)
    for (const bad of [
      { a: 'x', z: 1 },
      { a: 'x', nested: { b: 1, z: 1 } },
      { a: 'x', list: [{ c: true, z: 1 }] },
      { a: 'x', either: { d: 'default', z: 1 } },
    ])
      expect(Value.Check(Strict, bad)).toBe(false)
  })

  test('an object that allows more keeps allowing it, and the original schema is untouched', () => {
    expect(Value.Check(Strict, { a: 'x', open: { e: 'y', more: 1 } })).toBe(true)
    expect(Value.Check(Loose, { a: 'x', z: 1 })).toBe(true)
  })
})
