// Tool arguments as JSON text → an object; anything that is not a JSON object becomes {}.
import { describe, expect, test } from 'bun:test'
import { asList, safeJsonObject } from '../../src/lib/json.ts'

describe('safeJsonObject', () => {
  test('an object is parsed', () => {
    expect(safeJsonObject('{"city":"Paris","days":[1,2]}')).toEqual({ city: 'Paris', days: [1, 2] })
  })
  test.each(['', 'null', '[1,2]', '"text"', '42', 'true', '{"unterminated":', 'not json'])('%p → {}', (text) => {
    expect(safeJsonObject(text)).toEqual({})
  })
})

describe('asList', () => {
  test('an array is itself', () => {
    const list = [1, 2, 3]
    expect(asList(list)).toBe(list)
  })
  test.each([null, undefined, { length: 1 } as unknown as number[], 'ab' as unknown as string[]])('%p → []', (v) => {
    expect(asList(v as unknown[] | null | undefined)).toEqual([])
  })
})
