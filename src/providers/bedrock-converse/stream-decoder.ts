// ConverseStream events → canonical events. Blocks map onto parts by contentBlockIndex; the stop
// reason comes in messageStop and the usage after it, in metadata — so the finish is given once
// the usage is known, or at the end of a stream that stopped without it. An exception event fails
// the stream with its status class (a throttlingException is a 429).
import type { CEvent, StopReason } from '../../core/canonical.ts'
import type { ReportedUsage } from '../../core/usage.ts'
import { DONE } from '../../lib/wire.ts'
import type { StreamDecoder } from '../types.ts'
import { fromConverseStop } from '../../core/stop-reasons.ts'
import { fromConverseUsage } from './response.ts'
import { type ConverseEventWire, parseConverseEvent } from './wire.ts'

export function converseStreamDecoder(): StreamDecoder<ConverseEventWire> {
  let stop: StopReason | undefined
  let finished = false
  let failed = false
  let reported: ReportedUsage | undefined
  let chars = 0
  const toolIndex = new Map<number, number>()
  const reasoning = new Set<number>()
  const finish = (): CEvent[] => {
    if (stop === undefined || finished) return []
    finished = true
    return [{ type: 'finish', stopReason: stop }]
  }
  const delta = (e: Extract<ConverseEventWire, { type: 'contentBlockDelta' }>): CEvent[] => {
    const d = e.delta
    if (typeof d?.text === 'string') {
      chars += d.text.length
      return d.text ? [{ type: 'text', text: d.text }] : []
    }
    const tool = toolIndex.get(e.contentBlockIndex)
    if (typeof d?.toolUse?.input === 'string' && tool !== undefined) {
      chars += d.toolUse.input.length
      return d.toolUse.input ? [{ type: 'tool_call_args', index: tool, delta: d.toolUse.input }] : []
    }
    const r = d?.reasoningContent
    if (!r) return []
    const out: CEvent[] = []
    if (!reasoning.has(e.contentBlockIndex)) {
      reasoning.add(e.contentBlockIndex)
      out.push({ type: 'reasoning_start' })
    }
    if (typeof r.text === 'string') {
      chars += r.text.length
      out.push({ type: 'reasoning', text: r.text })
    }
    if (typeof r.signature === 'string') out.push({ type: 'reasoning_signature', signature: r.signature })
    if (typeof r.redactedContent === 'string') out.push({ type: 'reasoning_redacted', data: r.redactedContent })
    return out
  }
  return {
    parse: parseConverseEvent,
    upstreamId: () => undefined,
    usage: () => reported,
    deliveredChars: () => chars,
    read(e) {
      if (e === DONE) return []
      switch (e.type) {
        case 'contentBlockStart': {
          const t = e.start?.toolUse
          if (!t) return []
          const index = toolIndex.size
          toolIndex.set(e.contentBlockIndex, index)
          return [{ type: 'tool_call_start', index, id: String(t.toolUseId ?? ''), name: String(t.name ?? '') }]
        }
        case 'contentBlockDelta':
          return delta(e)
        case 'messageStop':
          stop = fromConverseStop(e.stopReason)
          return []
        case 'metadata': {
          const usage = fromConverseUsage(e.usage)
          if (!usage) return finish()
          reported = { usage, final: true }
          return [{ type: 'usage', usage, final: true }, ...finish()]
        }
        case 'exception':
          failed = true
          return [{ type: 'error', message: `${e.exceptionType}: ${e.message}`, status: e.status }]
        default:
          return []
      }
    },
    complete: () => !failed && stop !== undefined,
    // A stream that stopped without its metadata finishes here.
    end: finish,
  }
}
