// Request log models (docs/console.md "Request logs"): the filters of a list, and a log entry's
// members (no owner, cost in USD).
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { LogList, LogsQuery, RequestLog } from '../../../src/console/logs/model.ts'

describe('LogsQuery', () => {
  test('filters keyId, model and status success|error on top of the page query', () => {
    expect(Value.Check(LogsQuery, { keyId: 'key_1', model: 'acme/a', status: 'error', limit: 10, cursor: 'c' })).toBe(true)
    expect(Value.Check(LogsQuery, { status: 'success' })).toBe(true)
    expect(Value.Check(LogsQuery, { status: '200' })).toBe(false)
    expect(Value.Check(LogsQuery, { keyId: 'k'.repeat(101) })).toBe(false)
    expect(Value.Check(LogsQuery, { limit: 0 })).toBe(false)
  })
})

describe('RequestLog', () => {
  test('a log entry: gateway and errorCode may be null; there is no user member', () => {
    const entry = {
      id: 'req_1',
      keyId: 'key_1',
      model: 'acme/a',
      gateway: null,
      protocol: 'chat',
      stream: false,
      status: 502,
      errorCode: 'UPSTREAM_ERROR',
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      cost: 0,
      usageSource: 'none',
      latencyMs: 12,
      models: null,
      fault: 'upstream',
      attempts: [{ gateway: 'gw-a', model: 'acme/a', outcome: 'UPSTREAM_ERROR', status: 500, failure: 'status', ms: 3 }],
      transactionId: null,
      createdAt: '2026-11-27T00:00:00.000Z',
    }
    expect(Value.Check(RequestLog, entry)).toBe(true)
    expect(Object.keys(RequestLog.properties)).not.toContain('userId')
    expect(Value.Check(LogList, { items: [entry], nextCursor: null })).toBe(true)
    expect(Value.Check(RequestLog, { ...entry, stream: 'no' })).toBe(false)
    expect(Value.Check(RequestLog, { ...entry, fault: 'client' })).toBe(false)
  })
})
