// The anthropic-beta features forwarded to an Anthropic upstream: cleaned, never refused.
import { expect, test } from 'bun:test'
import { forwardedBetas } from '../../../src/protocols/messages/index.ts'

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
