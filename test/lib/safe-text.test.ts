import { describe, expect, test } from 'bun:test'
import { escapeForText, isSafeText, MAX_DEPTH, safeText, unsafeTextPath } from '../../src/lib/safe-text.ts'

describe('safeText', () => {
  test('clean text is returned as is', () => {
    expect(safeText('héllo 😀 wörld')).toBe('héllo 😀 wörld')
  })
  test('NUL removed, unpaired surrogates replaced, pairs kept', () => {
    expect(safeText('a\u0000b')).toBe('ab')
    expect(safeText('x\ud800y')).toBe('x\ufffdy')
    expect(safeText('x\udc00')).toBe('x\ufffd')
    expect(safeText('\udc00\ud83d\ude00\ud83d')).toBe('\ufffd😀\ufffd')
  })
  test('truncation counts code points and never splits a pair', () => {
    expect(safeText('ab😀c', 3)).toBe('ab😀')
    expect(safeText('ab😀c', 2)).toBe('ab')
    expect(safeText('😀😀😀', 2)).toBe('😀😀')
  })
})

describe('escapeForText', () => {
  test('NUL and unpaired surrogates become visible \\u escapes; the rest is untouched', () => {
    expect(escapeForText('a\u0000b\ud800😀')).toBe('a\\u0000b\\ud800😀')
    expect(escapeForText('plain')).toBe('plain')
  })
})

describe('isSafeText and unsafeTextPath', () => {
  test.each([
    ['plain', 'hello', true],
    ['emoji (a surrogate pair)', 'ok 😀', true],
    ['NUL', 'a\u0000b', false],
    ['lone high surrogate', 'a\ud800', false],
    ['lone low surrogate', '\udc00a', false],
    ['reversed pair', '\ude00\ud83d', false],
  ] as const)('%s', (_, s, ok) => expect(isSafeText(s)).toBe(ok))

  test('unsafeTextPath names the first offending string or member name; depth is bounded without recursion', () => {
    expect(unsafeTextPath({ a: [{ b: 'x' }, { c: 'y\u0000' }] })).toBe('body.a[1].c')
    expect(unsafeTextPath({ 'k\ud800': 1 })).toBe('body')
    expect(unsafeTextPath({ a: 1, b: [true, null, 'fine'] })).toBeUndefined()
    const deep = JSON.parse('['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1))
    expect(unsafeTextPath(deep)).toBe('body')
    expect(unsafeTextPath(JSON.parse('['.repeat(MAX_DEPTH - 1) + ']'.repeat(MAX_DEPTH - 1)))).toBeUndefined()
    expect(unsafeTextPath(JSON.parse('['.repeat(50_000) + ']'.repeat(50_000)))).toBe('body')
  })
})
