// The messages spoke's edge: the anthropic-beta features forwarded to an Anthropic upstream
// (cleaned, never refused), and body validation strict for the fields Tollgate reads, tolerant
// of the rest.
import { expect, test } from 'bun:test'
import type { GatewayError } from '../../../src/core/errors.ts'
import { forwardedBetas, messagesSpoke } from '../../../src/protocols/messages/index.ts'

const spoke = messagesSpoke({ creditsPerUsd: 1, creditSymbol: 'C' })
const body = (over: Record<string, unknown>) => ({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], ...over })

test.each<[string | null, string | undefined]>([
  [null, undefined],
  ['', undefined],
  ['context-1m-2025-08-07', 'context-1m-2025-08-07'],
  [' a-1 , b-2,,a-1 ', 'a-1,b-2'],
  ['oauth-2025-04-20,claude-code-20250219', 'claude-code-20250219'],
  ['OAuth-2025-04-20', undefined],
  ['good-1,bad feature,{x},good-2', 'good-1,good-2'],
])('%p → %p', (header, expected) => {
  expect(forwardedBetas(header)).toBe(expected)
})

test('fields Tollgate does not read pass validation; those it reads are checked, naming the field', () => {
  const current = {
    thinking: { type: 'adaptive', display: 'omitted' },
    output_config: { effort: 'high' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    metadata: { user_id: 'u1', other: 1 },
    some_future_field: { x: 1 },
  }
  expect(spoke.parse(body(current))).toMatchObject({ some_future_field: { x: 1 } })
  for (const [over, path] of [
    [{ output_config: { effort: 3 } }, 'output_config.effort'],
    [{ metadata: { user_id: 7 } }, 'metadata.user_id'],
    [{ thinking: { display: 'omitted' } }, 'thinking.type'],
  ] as const) {
    let caught: GatewayError | undefined
    try {
      spoke.parse(body(over))
    } catch (e) {
      caught = e as GatewayError
    }
    expect(caught?.message).toStartWith(`${path}: `)
  }
})
