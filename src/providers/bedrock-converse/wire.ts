// What Tollgate reads of Bedrock's Converse API (docs/providers.md "Bedrock: Claude and Llama"): the Converse JSON
// answer, and the ConverseStream events (AWS event-stream messages named by their event type,
// transport/aws-event-stream.ts). Minimal tolerant types: only the fields used are named; each
// stream event is read by a checked parse that never throws.

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

export type WireRead<T> = { ok: true; value: T } | { ok: false; error: string }

const TYPES = new Set(['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata'])
const INDEXED = new Set(['contentBlockStart', 'contentBlockDelta', 'contentBlockStop'])

/**
 * One ConverseStream event, as the event stream gives it: `{"<event type>": payload}` or
 * `{"exception": {type, message, status}}` (transport/aws-event-stream.ts). A member of another
 * type reads as undefined (skipped). Never throws.
 */
export function parseConverseEvent(data: string): WireRead<ConverseEventWire | undefined> {
  let o: Record<string, Record<string, unknown> | undefined>
  try {
    o = JSON.parse(data)
  } catch {
    return { ok: false, error: 'event is not JSON' }
  }
  if (o === null || typeof o !== 'object') return { ok: false, error: 'event is not an object' }
  const [type] = Object.keys(o)
  const payload = type === undefined ? undefined : o[type]
  if (type === undefined || payload === null || typeof payload !== 'object') return { ok: false, error: 'event has no payload' }
  if (type === 'exception')
    return {
      ok: true,
      value: {
        type: 'exception',
        exceptionType: String(payload.type),
        message: String(payload.message ?? ''),
        status: Number(payload.status) || 502,
      },
    }
  if (!TYPES.has(type)) return { ok: true, value: undefined }
  if (INDEXED.has(type) && typeof payload.contentBlockIndex !== 'number') return { ok: false, error: `${type}: contentBlockIndex` }
  return { ok: true, value: { ...payload, type } as ConverseEventWire }
}
