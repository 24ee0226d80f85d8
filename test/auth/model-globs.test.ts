import { describe, expect, test } from 'bun:test'
import { modelMatcher, unmatchedPatterns } from '../../src/auth/model-globs.ts'

describe('model allowlist globs', () => {
  test('`*` stands for any run of characters, `/` included; everything else is literal', () => {
    const allows = modelMatcher(['acme/*', '*-mini', 'other/exact.v1'])
    expect(['acme/chat-1', 'acme/x/y', 'z/fast-mini', 'other/exact.v1'].map(allows)).toEqual([true, true, true, true])
    expect(['acmex/chat', 'other/exactxv1', 'fast-mini-2', 'beta/chat'].map(allows)).toEqual([false, false, false, false])
  })

  test('no allowlist allows every model; "*" too', () => {
    expect(modelMatcher(null)('anything')).toBe(true)
    expect(modelMatcher(['*'])('a/b')).toBe(true)
  })

  test('regex characters in a slug are literal', () => {
    expect(modelMatcher(['a+b(1)'])('a+b(1)')).toBe(true)
    expect(modelMatcher(['a+b(1)'])('aab1')).toBe(false)
  })

  test('the patterns that match no slug are named', () => {
    expect(unmatchedPatterns(['acme/*', 'nope/*', 'acme/chat-1', 'acme/chat-9'], ['acme/chat-1', 'beta/x'])).toEqual([
      'nope/*',
      'acme/chat-9',
    ])
  })
})
