// Ends in one module (docs/api.md "What a call is billed", docs/failover.md "Who ended the call"):
// a thrown error classified into an end, an end into the client's error (one message per cause)
// and into the request log's status, code and fault, the abandoned call's included; whose
// failure ended a call (docs/operators.md "Reports") is counted by the end's cause, never by the
// status answered.
import { describe, expect, test } from 'bun:test'
import {
  answerError,
  CALLER_END_CODES,
  asGatewayError,
  CallEnded,
  type EndCause,
  endError,
  endOfThrown,
  endStatus,
  type Fault,
  endedByCaller,
  faultOf,
  shuttingDown,
} from '../../src/core/call-end.ts'
import { GatewayError } from '../../src/core/errors.ts'

const upstream = new GatewayError('UPSTREAM_TIMEOUT', 'slow')
const refused = (code: ConstructorParameters<typeof GatewayError>[0]): EndCause => ({ kind: 'refused', error: new GatewayError(code, 'x') })

describe('call ends', () => {
  test('endedByCaller: only the call’s own end (CallEnded), never an upstream or internal failure', () => {
    expect(endedByCaller(new CallEnded({ kind: 'client_left' }))).toBe(true)
    expect(endedByCaller(new CallEnded({ kind: 'drain' }))).toBe(true)
    expect(endedByCaller(upstream)).toBe(false)
    expect(endedByCaller(new Error('x'))).toBe(false)
    expect(endedByCaller(undefined)).toBe(false)
  })

  test('a thrown error becomes its end: the call’s own, an upstream failure before any byte, or a refusal', () => {
    expect(endOfThrown(new CallEnded({ kind: 'deadline' }))).toEqual({ kind: 'deadline' })
    expect(endOfThrown(upstream)).toEqual({ kind: 'upstream_failed', error: upstream, afterFirstByte: false })
    for (const code of ['UPSTREAM_ERROR', 'UPSTREAM_UNAVAILABLE'] as const)
      expect(endOfThrown(new GatewayError(code, 'x')).kind).toBe('upstream_failed')
    const refused = endOfThrown(new GatewayError('PAYMENT_REQUIRED', 'top up'))
    expect(refused.kind === 'refused' && refused.error.code).toBe('PAYMENT_REQUIRED')
    const bug = endOfThrown(new TypeError('boom'))
    expect(bug.kind === 'refused' && [bug.error.code, bug.error.cause instanceof TypeError]).toEqual(['INTERNAL', true])
  })

  test('the answer: the end’s own error when the end cut the work, else what was thrown; one message for the drain', () => {
    const drain: EndCause = { kind: 'drain' }
    expect(answerError(drain, new CallEnded(drain)).message).toBe(shuttingDown().message)
    expect(endError(drain).extra.headers).toEqual({ 'retry-after': '1' })
    expect(answerError({ kind: 'client_left' }, new CallEnded({ kind: 'client_left' })).code).toBe('CLIENT_CLOSED')
    expect(answerError({ kind: 'client_left' }, upstream)).toBe(upstream)
    // Something unexpected thrown once the client went away (its body's read failed) is its end's.
    expect(answerError({ kind: 'client_left' }, new TypeError('socket closed')).code).toBe('CLIENT_CLOSED')
    expect(answerError({ kind: 'refused', error: upstream }, new TypeError('bug')).code).toBe('INTERNAL')
    expect(endError({ kind: 'upstream_failed', error: upstream, afterFirstByte: true })).toBe(upstream)
    expect(asGatewayError('x').code).toBe('INTERNAL')
  })

  test('the caller’s ends have the codes CALLER_END_CODES lists', () => {
    expect((['client_left', 'deadline', 'drain'] as const).map((kind) => endStatus({ kind }).errorCode)).toEqual([...CALLER_END_CODES])
  })

  test('the request log’s status and code for every end, the abandoned call’s included', () => {
    const rows: [EndCause | { kind: 'abandoned' }, number, string | null, Fault | null][] = [
      [{ kind: 'completed' }, 200, null, null],
      [{ kind: 'upstream_failed', error: upstream, afterFirstByte: false }, 504, 'UPSTREAM_TIMEOUT', 'upstream'],
      // After the first byte the client had a 200; the log says the stream failed.
      [{ kind: 'upstream_failed', error: upstream, afterFirstByte: true }, 502, 'UPSTREAM_TIMEOUT', 'upstream'],
      [{ kind: 'refused', error: new GatewayError('RATE_LIMITED', 'x') }, 429, 'RATE_LIMITED', null],
      [{ kind: 'refused', error: new GatewayError('SERVICE_UNAVAILABLE', 'x') }, 503, 'SERVICE_UNAVAILABLE', 'tollgate'],
      [{ kind: 'client_left' }, 499, 'CLIENT_CLOSED', null],
      [{ kind: 'deadline' }, 499, 'CLIENT_IDLE', null],
      [{ kind: 'drain' }, 503, 'SHUTTING_DOWN', null],
      // The instance that held the call stopped answering for it: Tollgate's own failure.
      [{ kind: 'abandoned' }, 500, 'ABANDONED', 'tollgate'],
    ]
    for (const [end, status, errorCode, fault] of rows)
      expect({ end: end.kind, ...endStatus(end) }).toEqual({ end: end.kind, status, errorCode, fault })
  })

  test('faultOf: only the upstream failing or Tollgate failing itself is an error', () => {
    expect(faultOf(refused('INTERNAL'))).toBe('tollgate')
    for (const end of [{ kind: 'client_left' }, { kind: 'deadline' }, { kind: 'drain' }] as const) expect(faultOf(end)).toBeNull()
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
