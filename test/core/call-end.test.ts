// Whose failure ended a call (docs/operators.md "Reports"): errors are counted by the end's
// cause, never by the status answered.
import { describe, expect, test } from 'bun:test'
import { type EndCause, faultOf } from '../../src/core/call-end.ts'
import { GatewayError } from '../../src/core/errors.ts'

const refused = (code: ConstructorParameters<typeof GatewayError>[0]): EndCause => ({ kind: 'refused', error: new GatewayError(code, 'x') })

describe('faultOf', () => {
  test('each end cause: only the upstream failing or Tollgate failing itself is an error', () => {
    const upstream = new GatewayError('UPSTREAM_ERROR', 'x')
    expect(faultOf({ kind: 'completed' })).toBeNull()
    expect(faultOf({ kind: 'upstream_failed', error: upstream, afterFirstByte: false })).toBe('upstream')
    expect(faultOf({ kind: 'upstream_failed', error: upstream, afterFirstByte: true })).toBe('upstream')
    expect(faultOf({ kind: 'client_left' })).toBeNull()
    expect(faultOf({ kind: 'deadline' })).toBeNull()
    expect(faultOf({ kind: 'drain' })).toBeNull()
    expect(faultOf(refused('SERVICE_UNAVAILABLE'))).toBe('tollgate')
    expect(faultOf(refused('INTERNAL'))).toBe('tollgate')
  })

  test('a refusal for what the client asked is no error, though some answer 5xx', () => {
    for (const code of [
      'MODEL_NOT_FOUND',
      'MODEL_UNAVAILABLE',
      'PAYMENT_REQUIRED',
      'RATE_LIMITED',
      'VALIDATION_FAILED',
      'UPSTREAM_REJECTED',
    ] as const)
      expect({ code, fault: faultOf(refused(code)) }).toEqual({ code, fault: null })
    expect(new GatewayError('MODEL_NOT_FOUND', 'x').status).toBe(503)
  })
})
