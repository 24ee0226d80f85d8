// The top-level member scan: each value's exact source text, strings and nesting skipped whole,
// anything but one well-formed object refused.
import { describe, expect, test } from 'bun:test'
import { topLevelMembers } from '../../src/lib/json-members.ts'

const members = (text: string) => {
  const m = topLevelMembers(text)
  return m && Object.fromEntries(m)
}

describe('topLevelMembers', () => {
  test('values as their source text, whitespace around them dropped', () => {
    expect(members('{ "a" : [1, 2.5e-3, -0] ,"b":{"c":[{}]}, "d":"x", "e":null,"f":true,"g":-1.5}\n')).toEqual({
      a: '[1, 2.5e-3, -0]',
      b: '{"c":[{}]}',
      d: '"x"',
      e: 'null',
      f: 'true',
      g: '-1.5',
    })
  })

  test('brackets, braces and escaped quotes inside strings do not end a value', () => {
    expect(members('{"a":["]}\\"[{", "\\\\"],"b\\"c":1}')).toEqual({ a: '["]}\\"[{", "\\\\"]', 'b"c': '1' })
  })

  test('an empty object has no members', () => {
    expect(members(' {} ')).toEqual({})
  })

  test.each([
    ['not an object', '[1,2]'],
    ['empty text', ''],
    ['a truncated array', '{"data":[[0.1,0.2'],
    ['an unclosed string', '{"a":"x'],
    ['a trailing comma', '{"a":1,}'],
    ['a missing colon', '{"a" 1}'],
    ['text after the object', '{"a":1} x'],
    ['an unquoted name', '{a:1}'],
  ])('%s: undefined', (_, text) => {
    expect(topLevelMembers(text)).toBeUndefined()
  })
})
