// What Tollgate reads of Bedrock's Converse API (docs/providers.md "Bedrock: Claude and Llama"): the Converse JSON
// answer, and the ConverseStream events (AWS event-stream messages named by their event type,
// transport/aws-event-stream.ts). Minimal tolerant types: only the fields used are named; each
// stream event is read by a checked parse that never throws (lib/wire.ts).
import { exceptionOf, readEventObject, type WireResult, wireFailure } from '../../lib/wire.ts'

export interface ConverseUsageWire {
  inputTokens?: unknown
  outputTokens?: unknown
  cacheReadInputTokens?: unknown
  cacheWriteInputTokens?: unknown
}

/** One content block of the answer (or a stream's start / delta of one). */
export interface ConverseBlockWire {
  text?: string
  toolUse?: { toolUseId?: string; name?: string; input?: unknown }
  reasoningContent?: { reasoningText?: { text?: string; signature?: string }; redactedContent?: string }
}

export interface ConverseAnswerWire {
  output?: { message?: { content?: ConverseBlockWire[] } }
  stopReason?: unknown
  usage?: ConverseUsageWire
}

/** ConverseStream's events, by their `:event-type`. */
export type ConverseEventWire =
  | { type: 'messageStart' }
  | { type: 'contentBlockStart'; contentBlockIndex: number; start?: { toolUse?: { toolUseId?: string; name?: string } } }
  | {
      type: 'contentBlockDelta'
      contentBlockIndex: number
      delta?: {
        text?: string
        toolUse?: { input?: string }
        reasoningContent?: { text?: string; signature?: string; redactedContent?: string }
      }
    }
  | { type: 'contentBlockStop'; contentBlockIndex: number }
  | { type: 'messageStop'; stopReason?: unknown }
  | { type: 'metadata'; usage?: ConverseUsageWire }
  | { type: 'exception'; exceptionType: string; message: string; status: number }
  /** A member of another type (skipped). */
  | { type: 'other' }

const TYPES = new Set(['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata'])
const INDEXED = new Set(['contentBlockStart', 'contentBlockDelta', 'contentBlockStop'])

/**
 * One ConverseStream event, as the event stream gives it: `{"<event type>": payload}` or
 * `{"exception": {type, message, status}}` (transport/aws-event-stream.ts). A member of another
 * type reads as `other` (skipped). Never throws.
 */
export function parseConverseEvent(data: string): WireResult<ConverseEventWire> {
  const read = readEventObject(data)
  if (!read.ok) return read
  const o = read.value
  if (typeof o !== 'object') return wireFailure('not_object', 'sentinel')
  const exception = exceptionOf(o)
  if (exception)
    return { ok: true, value: { type: 'exception', exceptionType: exception.type, message: exception.message, status: exception.status } }
  const [type] = Object.keys(o)
  const payload = type === undefined ? undefined : o[type]
  if (type === undefined || payload === null || typeof payload !== 'object' || Array.isArray(payload))
    return wireFailure('bad_shape', 'event has no payload')
  if (!TYPES.has(type)) return { ok: true, value: { type: 'other' } }
  const p = payload as Record<string, unknown>
  if (INDEXED.has(type) && typeof p.contentBlockIndex !== 'number') return wireFailure('bad_shape', `${type}: contentBlockIndex`)
  return { ok: true, value: { ...p, type } as ConverseEventWire }
}
