// Server-Sent Events parser (WHATWG HTML §9.2.6): bytes → events. Handles CRLF/CR/LF, multi-line
// data, comments, and frames split across network chunks. Comments are dropped (they can carry
// upstream identity, e.g. ": OPENROUTER PROCESSING").

export interface SseEvent {
  event: string | undefined
  data: string
}

export class SseParser {
  private readonly decoder = new TextDecoder()
  private buffer = ''
  /** Characters of `buffer` already known to hold no line break (keeps long lines linear). */
  private scanned = 0
  private event: string | undefined = undefined
  private data: string[] = []
  private pendingCR = false

  /** Feed bytes; returns the events completed by them. */
  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true })
    if (this.pendingCR && text.startsWith('\n')) text = text.slice(1)
    this.pendingCR = false
    this.buffer += text
    const out: SseEvent[] = []
    let start = 0
    const buf = this.buffer
    for (let i = this.scanned; i < buf.length; i++) {
      const c = buf.charCodeAt(i)
      if (c !== 10 && c !== 13) continue
      this.line(buf.slice(start, i), out)
      if (c === 13) {
        if (i + 1 === buf.length) this.pendingCR = true
        else if (buf.charCodeAt(i + 1) === 10) i++
      }
      start = i + 1
    }
    this.buffer = start === 0 ? buf : buf.slice(start)
    this.scanned = this.buffer.length
    return out
  }

  /** End of input: a final event without its blank line is discarded, as the spec says. */
  end(): SseEvent[] {
    const out: SseEvent[] = []
    if (this.buffer.length > 0) this.line(this.buffer, out)
    this.buffer = ''
    this.scanned = 0
    return out
  }

  private line(line: string, out: SseEvent[]): void {
    if (line.length === 0) {
      if (this.data.length > 0) out.push({ event: this.event, data: this.data.join('\n') })
      this.data = []
      this.event = undefined
      return
    }
    if (line.charCodeAt(0) === 58) return // ':' comment
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.charCodeAt(0) === 32) value = value.slice(1)
    if (field === 'data') this.data.push(value)
    else if (field === 'event') this.event = value
  }
}
