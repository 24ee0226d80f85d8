// The embeddings body's inputs as the estimates count them: texts by characters, token arrays by
// ids (3 characters each, so the reservation's estimate is exactly their count).
import { describe, expect, test } from 'bun:test'
import { estimatePromptTokens } from '../../../src/billing/estimate.ts'
import { inputChars, inputsOf } from '../../../src/protocols/embeddings/schema.ts'

describe('embeddings inputs', () => {
  test('each input shape as a list of inputs', () => {
    expect(inputsOf('one')).toEqual(['one'])
    expect(inputsOf(['a', 'b'])).toEqual(['a', 'b'])
    expect(inputsOf([1, 2, 3])).toEqual([[1, 2, 3]])
    expect(inputsOf([[1], [2, 3]])).toEqual([[1], [2, 3]])
  })

  test('the total and the longest input', () => {
    expect(inputChars(['abc', 'abcdefg', ''])).toEqual({ total: 10, longest: 7 })
    expect(
      inputChars([
        [1, 2],
        [3, 4, 5, 6],
      ]),
    ).toEqual({ total: 18, longest: 12 })
  })

  test('a token array reserves exactly its length in tokens', () => {
    expect(estimatePromptTokens(inputChars([Array.from({ length: 1234 }, (_, i) => i)]).total)).toBe(1234)
  })
})
