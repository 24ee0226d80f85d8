// Server-Sent Events parser (WHATWG HTML §9.2.6): bytes → events. Handles CRLF/CR/LF, multi-line
// data, comments, and frames split across network chunks. Comments are dropped (they can carry
// upstream identity, e.g. ": OPENROUTER PROCESSING").
//
// Every streamed frame passes through here, so line breaks are found with indexOf (native) rather
// than a loop over characters, and a line is read in place in the buffer: only its value is
// sliced out (docs/benchmarks-log.md "Where the time goes outside the pipeline").

export interface SseEvent {
  event: string | undefined
  data: string
}

const LF = 10
const COLON = 58
const SPACE = 32

/**
 * A copy of `s` that shares no storage. JavaScriptCore keeps a slice of a string as a view of the
 * whole string, so a short remainder kept between reads would pin the whole decoded read (64 KiB
 * and more per stream) for as long as the stream waits for its client (docs/drain.md "Memory").
 * Used only on what outlives a read: at most one partial line and one pending event.
 */
const detached = (s: string): string => JSON.parse(JSON.stringify(s))

export class SseParser {
  private readonly decoder = new TextDecoder()
  /** Text after the last line break seen (it holds none). */
  private buffer = ''
  private event: string | undefined = undefined
  /** The event's data lines joined with LF; undefined while it has none. */
  private data: string | undefined = undefined
  private pendingCR = false

  /** Feed bytes; returns the events completed by them. */
  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true })
    if (this.pendingCR && text.charCodeAt(0) === LF) text = text.slice(1)
    this.pendingCR = false
    const out: SseEvent[] = []
    // The line carried from the last read ends at this read's first break: only that line is
    // joined to it, never the whole read (a copy of every read, and garbage).
    let carry = this.buffer
    let start = 0
    let lf = text.indexOf('\n')
    let cr = text.indexOf('\r')
    while (lf !== -1 || cr !== -1) {
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr
      if (carry.length === 0) this.line(text, start, end, out)
      else {
        const line = carry + text.slice(0, end)
        this.line(line, 0, line.length, out)
        carry = ''
      }
      let next = end + 1
      if (end === cr) {
        if (next === text.length) this.pendingCR = true
        else if (text.charCodeAt(next) === LF) next++
        cr = text.indexOf('\r', next)
      }
      if (lf !== -1 && lf < next) lf = text.indexOf('\n', next)
      start = next
    }
    // A read that ends on a line break (the usual case: one read, whole frames) keeps nothing.
    this.buffer = start === 0 ? carry + text : start === text.length ? '' : detached(text.slice(start))
    // An event whose blank line has not come yet outlives this read too.
    if (this.data !== undefined) this.data = detached(this.data)
    if (this.event !== undefined) this.event = detached(this.event)
    return out
  }

  /** End of input: a final event without its blank line is discarded, as the spec says. */
  end(): SseEvent[] {
    const out: SseEvent[] = []
    if (this.buffer.length > 0) this.line(this.buffer, 0, this.buffer.length, out)
    this.buffer = ''
    return out
  }

  /** The line buf[start, end). */
  private line(buf: string, start: number, end: number, out: SseEvent[]): void {
    if (start === end) {
      if (this.data !== undefined) out.push({ event: this.event, data: this.data })
      this.data = undefined
      this.event = undefined
      return
    }
    if (buf.charCodeAt(start) === COLON) return // comment
    let colon = buf.indexOf(':', start)
    if (colon === -1 || colon > end) colon = end
    let valueStart = colon === end ? end : colon + 1
    if (valueStart < end && buf.charCodeAt(valueStart) === SPACE) valueStart++
    const fieldLength = colon - start
    if (fieldLength === 4 && buf.startsWith('data', start)) {
      const value = buf.slice(valueStart, end)
      this.data = this.data === undefined ? value : `${this.data}\n${value}`
    } else if (fieldLength === 5 && buf.startsWith('event', start)) {
      this.event = buf.slice(valueStart, end)
    }
  }
}
