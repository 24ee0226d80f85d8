import { describe, expect, test } from 'bun:test'
import { escapeForText, safeText } from '../../src/lib/safe-text.ts'

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
