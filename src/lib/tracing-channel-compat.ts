// Bun (1.4) lacks Node's TracingChannel#hasSubscribers. ioredis 6 reads it before every command
// and, finding `undefined`, traces each one through tracePromise — ~14% of the gateway's CPU per
// request in our profile, with nobody listening. This defines the getter as Node does: true when
// any of the five sub-channels has a subscriber. A no-op where the runtime already has it.
import dc from 'node:diagnostics_channel'

const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const

export function ensureTracingChannelHasSubscribers(): void {
  if (typeof dc.tracingChannel !== 'function') return
  const proto = Object.getPrototypeOf(dc.tracingChannel('tollgate:probe'))
  if (!proto || 'hasSubscribers' in proto) return
  Object.defineProperty(proto, 'hasSubscribers', {
    configurable: true,
    get(this: Record<string, { hasSubscribers?: boolean } | undefined>) {
      return EVENTS.some((e) => this[e]?.hasSubscribers === true)
    },
  })
}
