// The checked read of one upstream stream event's JSON, shared by every vendor wire module
// (src/providers/<u>/wire.ts). A read never throws: an event is a typed value, the `[DONE]`
// sentinel, or a typed failure that the stream stage counts (docs/failover.md "Failure →
// behaviour").

/** The `[DONE]` sentinel: chat's end of stream, which some compatible servers send on other protocols too. */
export const DONE: unique symbol = Symbol('[DONE]')
export type Done = typeof DONE

/** Why an event could not be read: not JSON (cut, garbled), JSON but no object, or an object of the wrong shape. */
export interface WireFailure {
  reason: 'not_json' | 'not_object' | 'bad_shape'
  /** For the log: what was wrong (never sent to a client). */
  detail: string
}

export type WireResult<T> = { ok: true; value: T } | { ok: false; failure: WireFailure }

export const wireFailure = (reason: WireFailure['reason'], detail: string): { ok: false; failure: WireFailure } => ({
  ok: false,
  failure: { reason, detail },
})

/** The event's data as a JSON object (or DONE), parsed once; never throws. */
export function readEventObject(data: string): WireResult<Record<string, unknown> | Done> {
  if (data === '[DONE]') return { ok: true, value: DONE }
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch (e) {
    return wireFailure('not_json', e instanceof Error ? e.message : String(e))
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return wireFailure('not_object', typeof value)
  return { ok: true, value: value as Record<string, unknown> }
}

/** A member that, when present, must be of `kind` ('array' or a typeof name); absent and null pass. */
export function memberIs(o: Record<string, unknown>, name: string, kind: 'array' | 'object' | 'string' | 'number'): boolean {
  const v = o[name]
  if (v === undefined || v === null) return true
  if (kind === 'array') return Array.isArray(v)
  if (kind === 'object') return typeof v === 'object' && !Array.isArray(v)
  return typeof v === kind
}

/** An error a non-SSE stream framed as an event, with the status class its framing gave it (transport/aws-event-stream.ts). */
export interface StreamException {
  type: string
  message: string
  status: number
}

/** An `{"exception": {type, message, status}}` event's exception, or undefined; a missing status is a 502. */
export function exceptionOf(o: Record<string, unknown>): StreamException | undefined {
  const e = o.exception
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return undefined
  const x = e as Record<string, unknown>
  return { type: String(x.type), message: String(x.message ?? ''), status: Number(x.status) || 502 }
}
