// An outbox record of a completed call as settlement writes it (src/billing/outbox-record.ts),
// for tests that put records in the outbox or in Postgres themselves. Defaults: a 200 chat call
// of acme/chat-1 through gw-a, 10 prompt + 20 completion tokens, usage from the upstream.
import type { OutboxRecord } from '../../src/billing/outbox-record.ts'

export const usageRecord = (call: Pick<OutboxRecord, 'requestId' | 'userId' | 'keyId' | 'cost'> & Partial<OutboxRecord>): OutboxRecord => ({
  v: 1,
  model: 'acme/chat-1',
  gateway: 'gw-a',
  protocol: 'chat',
  stream: false,
  status: 200,
  errorCode: null,
  usage: { inputTokens: 10, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  usageSource: 'upstream',
  latencyMs: 12,
  at: Date.now(),
  ...call,
})
