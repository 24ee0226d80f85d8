// The one error type: a code that knows its status and whether failover may retry it, and the
// headers that tell an SDK not to retry what it cannot escape.
import { describe, expect, test } from 'bun:test'
import { clientRetryHeaders, GatewayError, serviceUnavailable } from '../../src/core/errors.ts'

describe('GatewayError', () => {
  test('the status follows the code; retryable only when said', () => {
    const rows = [
      ['VALIDATION_FAILED', 422],
      ['PAYMENT_REQUIRED', 402],
      ['RATE_LIMITED', 429],
      ['UPSTREAM_ERROR', 502],
      ['UPSTREAM_TIMEOUT', 504],
      ['CLIENT_CLOSED', 499],
      ['SHUTTING_DOWN', 503],
    ] as const
    for (const [code, status] of rows) expect(new GatewayError(code, 'x').status).toBe(status)
    expect(new GatewayError('UPSTREAM_ERROR', 'x').retryable).toBe(false)
    expect(new GatewayError('UPSTREAM_ERROR', 'x', { retryable: true }).retryable).toBe(true)
  })

  test('x-should-retry: false only where a retry cannot help', () => {
    expect(clientRetryHeaders(new GatewayError('BAD_REQUEST', 'x'))).toEqual({ 'x-should-retry': 'false' })
    expect(clientRetryHeaders(new GatewayError('CONTEXT_LENGTH_EXCEEDED', 'x'))).toEqual({ 'x-should-retry': 'false' })
    expect(clientRetryHeaders(new GatewayError('RATE_LIMITED', 'x'))).toEqual({})
    expect(clientRetryHeaders(new GatewayError('UPSTREAM_ERROR', 'x'))).toEqual({})
  })

  test('a backing service down: 503 with Retry-After, the cause kept for the log only', () => {
    const cause = new Error('ECONNREFUSED')
    const e = serviceUnavailable(cause)
    expect([e.status, e.code, e.extra.headers, e.cause]).toEqual([503, 'SERVICE_UNAVAILABLE', { 'retry-after': '1' }, cause])
    expect(e.message).not.toContain('ECONNREFUSED')
  })
})
