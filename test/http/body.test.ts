// A JSON body's text: NUL and lone surrogates are refused even when written as escapes, naming
// the member (docs/security.md "Input: one rule at every edge").
import { describe, expect, test } from 'bun:test'
import { parseJsonText } from '../../src/http/body.ts'

describe('parseJsonText', () => {
  test('escapes are found, an escaped backslash is not an escape', () => {
    expect(() => parseJsonText('{"a":"\\u0000"}')).toThrow(/body\.a/)
    expect(() => parseJsonText('{"a":"\\uD83D"}')).toThrow(/body\.a/)
    expect(parseJsonText('{"a":"\\\\u0000"}')).toEqual({ a: '\\u0000' })
    expect(parseJsonText('{"a":"\\ud83d\\ude00"}')).toEqual({ a: '😀' })
    expect(() => parseJsonText('{')).toThrow(/not valid JSON/)
    expect(() => parseJsonText('')).toThrow(/empty/)
  })
})
