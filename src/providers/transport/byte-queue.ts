// Body bytes waiting for a slow consumer (h1-stream.ts), handed out in bounded chunks. One socket
// read can bring up to 512 KiB at once; handing that on whole would let one stalled client pin it
// twice (here and as the pipeline's output waiting at the client socket), so a consumer gets at
// most `max` bytes per read (docs/drain.md "Slow clients"). Pure: no I/O.

export class ByteQueue {
  private parts: Uint8Array[] = []
  private bytes = 0

  get size(): number {
    return this.bytes
  }

  push(part: Uint8Array): void {
    if (part.length === 0) return
    this.parts.push(part)
    this.bytes += part.length
  }

  /** Up to `max` bytes in arrival order, or undefined when empty. A large piece is split
   *  (a view, no copy); small pieces are joined into one chunk (a copy of at most `max`). */
  take(max: number): Uint8Array | undefined {
    const head = this.parts[0]
    if (!head) return undefined
    if (head.length >= max || this.parts.length === 1) return this.cut(Math.min(max, head.length))
    const size = Math.min(max, this.bytes)
    const out = new Uint8Array(size)
    let at = 0
    while (at < size) {
      const piece = this.cut(Math.min(size - at, this.parts[0]!.length))
      out.set(piece, at)
      at += piece.length
    }
    return out
  }

  /** The first `n` bytes of the head piece (n ≤ its length). */
  private cut(n: number): Uint8Array {
    const head = this.parts[0]!
    this.bytes -= n
    if (n === head.length) {
      this.parts.shift()
      return head
    }
    this.parts[0] = head.subarray(n)
    return head.subarray(0, n)
  }
}
