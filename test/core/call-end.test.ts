// Ends in one module (docs/api.md "What a call is billed", docs/failover.md "Who ended the call"):
// a thrown error classified into an end, an end into the client's error (one message per cause)
// and into the request log's status and code, the abandoned call's included.
import { describe, expect, test } from 'bun:test'
import {
  answerError,
  asGatewayError,
  CallEnded,
  type EndCause,
  endError,
  endOfThrown,
  endStatus,
  endedByCaller,
  shuttingDown,
} from '../../src/core/call-end.ts'
import { GatewayError } from '../../src/core/errors.ts'

const upstream = new GatewayError('UPSTREAM_TIMEOUT', 'slow')

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
    expect(endError({ kind: 'upstream_failed', error: upstream, afterFirstByte: true })).toBe(upstream)
    expect(asGatewayError('x').code).toBe('INTERNAL')
  })

  test('the request log’s status and code for every end, the abandoned call’s included', () => {
    const rows: [EndCause | { kind: 'abandoned' }, number, string | null][] = [
      [{ kind: 'completed' }, 200, null],
      [{ kind: 'upstream_failed', error: upstream, afterFirstByte: false }, 504, 'UPSTREAM_TIMEOUT'],
      // After the first byte the client had a 200; the log says the stream failed.
      [{ kind: 'upstream_failed', error: upstream, afterFirstByte: true }, 502, 'UPSTREAM_TIMEOUT'],
      [{ kind: 'refused', error: new GatewayError('RATE_LIMITED', 'x') }, 429, 'RATE_LIMITED'],
      [{ kind: 'client_left' }, 499, 'CLIENT_CLOSED'],
      [{ kind: 'deadline' }, 499, 'CLIENT_IDLE'],
      [{ kind: 'drain' }, 503, 'SHUTTING_DOWN'],
      [{ kind: 'abandoned' }, 500, 'ABANDONED'],
    ]
    for (const [end, status, errorCode] of rows) expect({ end: end.kind, ...endStatus(end) }).toEqual({ end: end.kind, status, errorCode })
  })
})
