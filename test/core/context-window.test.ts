// The context window as a client-facing rule: an upstream's "too long" answer recognised in each
// vendor's words, one clear 400, and a prompt refused early only when it cannot fit at any density.
import { describe, expect, test } from 'bun:test'
import { contextLengthError, isContextLengthAnswer, promptCannotFit } from '../../src/core/context-window.ts'

describe('context window', () => {
  test("each vendor's too-long answer, only on a 4xx that can carry it", () => {
    expect(isContextLengthAnswer(400, '{"error":{"code":"context_length_exceeded"}}')).toBe(true)
    expect(isContextLengthAnswer(400, 'prompt is too long: 210000 tokens > 200000 maximum')).toBe(true)
    expect(isContextLengthAnswer(422, "This model's maximum context length is 8192 tokens")).toBe(true)
    expect(isContextLengthAnswer(500, 'maximum context length')).toBe(false)
    expect(isContextLengthAnswer(400, 'invalid temperature')).toBe(false)
  })

  test('one 400 naming the window', () => {
    const e = contextLengthError(8_000, 'messages')
    expect([e.status, e.code, e.extra.param]).toEqual([400, 'CONTEXT_LENGTH_EXCEEDED', 'messages'])
    expect(e.message).toContain('context window of 8000 tokens')
  })

  test('refused early only above six characters per token of the window', () => {
    expect(promptCannotFit(6 * 1_000, 1_000)).toBe(false)
    expect(promptCannotFit(6 * 1_000 + 6, 1_000)).toBe(true)
  })
})
