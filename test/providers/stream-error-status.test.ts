// What an error sent inside a stream stands for: only the statuses failover acts on (408, 429,
// 5xx), by Anthropic's error type, OpenAI's code or OpenRouter's numeric code; anything else none.
import { expect, test } from 'bun:test'
import { streamErrorStatus, withStatus } from '../../src/providers/stream-error-status.ts'

test('vendor names and numeric codes that fail over give their status', () => {
  const named = [
    'overloaded_error',
    'rate_limit_error',
    'api_error',
    'timeout_error',
    'rate_limit_exceeded',
    'insufficient_quota',
    'server_error',
  ]
  expect(named.map(streamErrorStatus)).toEqual([529, 429, 500, 504, 429, 429, 500])
  expect([408, 429, 500, 502, 529, 599].map(streamErrorStatus)).toEqual([408, 429, 500, 502, 529, 599])
})

test('the request’s own faults, unknown names and odd values give none', () => {
  for (const code of [
    'invalid_request_error',
    'authentication_error',
    'context_length_exceeded',
    'toString',
    400,
    404,
    600,
    502.5,
    null,
    undefined,
    {},
  ])
    expect(streamErrorStatus(code)).toBeUndefined()
  expect(withStatus('invalid_request_error')).toEqual({})
  expect(withStatus(502)).toEqual({ status: 502 })
})
