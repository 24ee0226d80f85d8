// ConverseStream events → canonical events. Blocks map onto parts by contentBlockIndex; the stop
// reason comes in messageStop and the usage after it, in metadata — so the finish is given once
// the usage is known, or at the end of a stream that stopped without it. An exception event fails
// the stream with its status class (a throttlingException is a 429).
import type { CEvent } from '../../core/canonical.ts'
import type { StopReason } from '../../core/canonical.ts'
import type { StreamDecoder } from '../types.ts'
import { fromConverseStop, fromConverseUsage } from './response.ts'
import { parseConverseEvent } from './wire.ts'

export function converseStreamDecoder(): StreamDecoder {
  let stop: StopReason | undefined
  let finished = false
  const toolIndex = new Map<number, number>()
  const reasoning = new Set<number>()
  const finish = (): CEvent[] => {
    if (stop === undefined || finished) return []
    finished = true
    return [{ type: 'finish', stopReason: stop }]
  }
  return {
    upstreamId: () => undefined,
    push(ev) {
      const read = parseConverseEvent(ev.data)
      if (!read.ok) throw new Error(read.error)
      const e = read.value
      switch (e?.type) {
        case 'contentBlockStart': {
          const t = e.start?.toolUse
          if (!t) return []
          const index = toolIndex.size
          toolIndex.set(e.contentBlockIndex, index)
          return [{ type: 'tool_call_start', index, id: String(t.toolUseId ?? ''), name: String(t.name ?? '') }]
        }
        case 'contentBlockDelta': {
          const d = e.delta
          if (typeof d?.text === 'string') return d.text ? [{ type: 'text', text: d.text }] : []
          const tool = toolIndex.get(e.contentBlockIndex)
          if (typeof d?.toolUse?.input === 'string' && tool !== undefined)
            return d.toolUse.input ? [{ type: 'tool_call_args', index: tool, delta: d.toolUse.input }] : []
          const r = d?.reasoningContent
          if (!r) return []
          const out: CEvent[] = []
          if (!reasoning.has(e.contentBlockIndex)) {
            reasoning.add(e.contentBlockIndex)
            out.push({ type: 'reasoning_start' })
          }
          if (typeof r.text === 'string') out.push({ type: 'reasoning', text: r.text })
          if (typeof r.signature === 'string') out.push({ type: 'reasoning_signature', signature: r.signature })
          if (typeof r.redactedContent === 'string') out.push({ type: 'reasoning_redacted', data: r.redactedContent })
          return out
        }
        case 'messageStop':
          stop = fromConverseStop(e.stopReason)
          return []
        case 'metadata': {
          const usage = fromConverseUsage(e.usage)
          return [...(usage ? [{ type: 'usage' as const, usage, final: true }] : []), ...finish()]
        }
        case 'exception':
          return [{ type: 'error', message: `${e.exceptionType}: ${e.message}`, status: e.status }]
        default:
          return []
      }
    },
    end() {
      if (stop === undefined) throw new Error('stream ended before messageStop')
      return finish()
    },
  }
}
