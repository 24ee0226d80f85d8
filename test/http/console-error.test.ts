// The console's error hook: an unexpected error is a 500 envelope and a log line with the request
// id; a client error is not logged.
import { describe, expect, test } from 'bun:test'
import { consoleErrorHook } from '../../src/http/console-error.ts'
import type { Logger } from '../../src/lib/log.ts'

describe('console errors', () => {
  test('an unexpected error is a 500 envelope and is logged with the request id; a client error is not logged', async () => {
    const lines: Record<string, unknown>[] = []
    const log: Logger = { debug() {}, info() {}, warn() {}, error: (msg, f) => lines.push({ msg, ...f }) }
    const hook = consoleErrorHook(log)
    const set = { headers: { 'x-request-id': 'req_abc' } as Record<string, unknown> }
    const request = new Request('http://gw.test/api/keys/x', { method: 'DELETE' })
    const res = hook({ code: 'UNKNOWN', error: new Error('invalid byte sequence for encoding "UTF8": 0x00'), set, request })
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error: { code: 'INTERNAL', message: 'Internal error.' } })
    expect(lines).toEqual([expect.objectContaining({ requestId: 'req_abc', path: '/api/keys/x', method: 'DELETE' })])
    expect(String(lines[0]!.err)).toContain('0x00')
    expect(hook({ code: 'NOT_FOUND', error: new Error('nope'), set, request }).status).toBe(404)
    expect(lines).toHaveLength(1)
  })
})
