// Runs a recorded upstream stream through a provider's stream decoder and renders the canonical
// events as short lines, adjacent text / reasoning / argument deltas joined, so a test states
// the whole sequence (kinds, indexes, ids, names, usage, stop reason) in a few lines.
import type { CEvent } from '../../src/core/canonical.ts'
import { SseParser, type SseEvent } from '../../src/lib/sse/parse.ts'
import type { StreamDecoder } from '../../src/providers/types.ts'

/** One upstream event through a decoder as the stream stage takes it: parsed once, then read; an unreadable event throws here. */
export function push(decoder: StreamDecoder, ev: SseEvent): CEvent[] {
  const read = decoder.parse(ev.data)
  if (!read.ok) throw new Error(`unreadable event: ${read.failure.reason}`)
  return decoder.read(read.value)
}

/** The decoder's closing events; a stream that neither completed nor failed with an error event throws `message`. */
export function end(decoder: StreamDecoder, message: string, failed: boolean): CEvent[] {
  if (!decoder.complete() && !failed) throw new Error(message)
  return decoder.end()
}

export interface Decoded {
  lines: string[]
  text: string
  reasoning: string
  upstreamId: string | undefined
}

function line(e: CEvent): string {
  switch (e.type) {
    case 'text':
      return e.refusal ? 'refusal' : 'text'
    case 'reasoning':
    case 'reasoning_start':
    case 'reasoning_signature':
    case 'reasoning_redacted':
      return e.type
    case 'reasoning_encrypted':
      return `reasoning_encrypted ${e.id}`
    case 'tool_call_start':
      return `tool_call_start ${e.index} ${e.id} ${e.name}`
    case 'tool_call_args':
      return `tool_call_args ${e.index} ${e.delta}`
    case 'usage': {
      const u = e.usage
      return `${e.final ? 'usage' : 'placeholder usage'} in ${u.inputTokens} out ${u.outputTokens} cache ${u.cacheReadTokens}/${u.cacheWriteTokens} reasoning ${u.reasoningTokens}`
    }
    case 'finish':
      return `finish ${e.stopReason}${e.stopSequence ? ` ${e.stopSequence}` : ''}`
    case 'error':
      return `error ${e.message}`
  }
}

/** Joins a delta onto the previous event when it continues it (same kind, same tool call). */
function join(out: CEvent[], e: CEvent): void {
  const last = out.at(-1)
  if (last?.type === 'text' && e.type === 'text' && !last.refusal === !e.refusal) last.text += e.text
  else if (last?.type === 'reasoning' && e.type === 'reasoning') last.text += e.text
  else if (last?.type === 'tool_call_args' && e.type === 'tool_call_args' && last.index === e.index) last.delta += e.delta
  else out.push({ ...e })
}

export function decode(decoder: StreamDecoder, sse: string): Decoded {
  const events: CEvent[] = []
  for (const ev of new SseParser().push(sse)) for (const e of push(decoder, ev)) join(events, e)
  const failed = events.some((e) => e.type === 'error')
  for (const e of end(decoder, 'stream ended before its answer was complete', failed)) join(events, e)
  return {
    lines: events.map(line),
    text: events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join(''),
    reasoning: events.flatMap((e) => (e.type === 'reasoning' ? [e.text] : [])).join(''),
    upstreamId: decoder.upstreamId(),
  }
}

/** The stream without its last `n` events: what a cut connection delivers. */
export function cut(sse: string, n: number): string {
  const events = sse.split(/\n\n+/).filter((e) => e.trim() !== '')
  return events.slice(0, -n).join('\n\n') + '\n\n'
}
