import { expect, test } from 'bun:test'
import dc from 'node:diagnostics_channel'
import { ensureTracingChannelHasSubscribers } from '../../src/lib/tracing-channel-compat.ts'

test('TracingChannel#hasSubscribers follows its sub-channels (ioredis skips tracing when false)', () => {
  ensureTracingChannelHasSubscribers()
  const channel = dc.tracingChannel('tollgate:test') as any
  expect(channel.hasSubscribers).toBe(false)
  const handlers = { start() {}, end() {}, asyncStart() {}, asyncEnd() {}, error() {} }
  channel.subscribe(handlers)
  expect(channel.hasSubscribers).toBe(true)
  channel.unsubscribe(handlers)
  expect(channel.hasSubscribers).toBe(false)
})
