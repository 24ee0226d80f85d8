// The one /v1 error mapping: the protocol's envelope and status, x-request-id, retry headers and
// the error's own headers; only an unexpected error is logged, under the request id.
import { describe, expect, test } from 'bun:test'
import { GatewayError } from '../../src/core/errors.ts'
import { asGatewayError } from '../../src/core/call-end.ts'
import { errorResponse } from '../../src/inference/error-response.ts'
import { createLogger } from '../../src/lib/log.ts'
import { chatErrorBody } from '../../src/protocols/chat/error.ts'
import { messagesErrorBody } from '../../src/protocols/messages/error.ts'

function capture() {
  const lines: Record<string, unknown>[] = []
  return { log: createLogger('debug', (l) => void lines.push(JSON.parse(l))), lines }
}

describe('errorResponse', () => {
  test("a GatewayError in the protocol's envelope with its headers, not logged", async () => {
    const { log, lines } = capture()
    const err = new GatewayError('RATE_LIMITED', 'slow down', { headers: { 'retry-after': '7' } })
    const res = errorResponse(messagesErrorBody, err, 'req_abc', log, 'messages request')
    expect(res.status).toBe(429)
    expect(res.headers.get('x-request-id')).toBe('req_abc')
    expect(res.headers.get('retry-after')).toBe('7')
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } })
    expect(lines).toEqual([])
  })

  test('a request the client cannot fix by retrying says so', () => {
    const { log } = capture()
    const res = errorResponse(chatErrorBody, new GatewayError('UNAUTHORIZED', 'no key'), 'req_1', log, 'chat request')
    expect(res.status).toBe(401)
    expect(res.headers.get('x-should-retry')).toBe('false')
  })

  test('anything else is INTERNAL: a 500 with a generic message, logged with the request id and the cause', async () => {
    const { log, lines } = capture()
    const res = errorResponse(chatErrorBody, asGatewayError(new TypeError('boom')), 'req_2', log, 'models request')
    expect(res.status).toBe(500)
    const body = (await res.json()) as { error: { code: string; message: string } }
    expect(body.error).toEqual({ code: 'INTERNAL', message: 'Internal error.' })
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 'error', msg: 'models request failed', requestId: 'req_2', err: 'TypeError: boom' })
  })
})
