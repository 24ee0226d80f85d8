// What Tollgate reads of Bedrock's Converse API (docs/providers.md "Bedrock"): the Converse JSON
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

const INDEXED = new Set(['contentBlockStart', 'contentBlockDelta', 'contentBlockStop'])

/** One ConverseStream event; an event of another type reads as undefined (skipped). */
export function parseConverseEvent(event: string | undefined, data: string): WireRead<ConverseEventWire | undefined> {
  let o: Record<string, unknown>
  try {
    o = JSON.parse(data)
  } catch {
    return { ok: false, error: `${event}: payload is not JSON` }
  }
  if (o === null || typeof o !== 'object') return { ok: false, error: `${event}: payload is not an object` }
  if (event === 'exception')
    return {
      ok: true,
      value: { type: 'exception', exceptionType: String(o.type), message: String(o.message ?? ''), status: Number(o.status) || 502 },
    }
  if (event === undefined || !['messageStart', 'messageStop', 'metadata', ...INDEXED].includes(event)) return { ok: true, value: undefined }
  if (INDEXED.has(event) && typeof o.contentBlockIndex !== 'number') return { ok: false, error: `${event}: contentBlockIndex` }
  return { ok: true, value: { ...o, type: event } as ConverseEventWire }
}
