// HTTP/1.1 response body framing (RFC 9112 §6–7): chunked transfer coding, Content-Length, or
// read-until-close. Pure: bytes in, body bytes out, and whether the body is complete.

export interface BodyDecoder {
  /** Body bytes carried by `data` (views into it, no copy where possible). */
  push(data: Uint8Array): Uint8Array[]
  /** The framing says the body is complete. */
  done(): boolean
  /** The connection closed: complete only if the framing allows it (read-until-close). */
  endOk(): boolean
}

export function bodyDecoder(headers: Headers): BodyDecoder {
  if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) return chunkedDecoder()
  const length = headers.get('content-length')
  if (length !== null && /^\d+$/.test(length.trim())) return lengthDecoder(Number(length))
  let closed = false
  return { push: (d) => [d], done: () => closed, endOk: () => ((closed = true), true) }
}

function lengthDecoder(total: number): BodyDecoder {
  let left = total
  return {
    push(d) {
      const n = Math.min(left, d.length)
      left -= n
      return n > 0 ? [d.subarray(0, n)] : []
    },
    done: () => left === 0,
    endOk: () => left === 0,
  }
}

const CR = 13
const LF = 10
const SP = 32
const TAB = 9
const SEMI = 59
const MAX_LINE = 4096
const MAX_SIZE_DIGITS = 12

/** The value of an ASCII hex digit, or -1. */
function hexValue(b: number): number {
  if (b >= 48 && b <= 57) return b - 48
  const lower = b | 0x20
  return lower >= 97 && lower <= 102 ? lower - 87 : -1
}

/**
 * Chunk sizes, extensions and trailers are read byte by byte as they arrive (no line is kept:
 * the size is summed digit by digit, the rest of a line is skipped), so a body split anywhere
 * costs no allocation beyond the views of its data.
 */
function chunkedDecoder(): BodyDecoder {
  // size: the hex digits (then blanks); ext: the rest of the size line; crlf: the line end after
  // a chunk's data; trailer: trailer lines until an empty one.
  let state: 'size' | 'ext' | 'data' | 'crlf' | 'trailer' | 'done' = 'size'
  let left = 0
  let digits = 0
  let lineLength = 0
  const endOfSizeLine = () => {
    if (digits === 0) throw new Error('malformed chunk size')
    state = left === 0 ? 'trailer' : 'data'
    digits = 0
    lineLength = 0
  }
  return {
    push(d) {
      const out: Uint8Array[] = []
      let i = 0
      while (i < d.length && state !== 'done') {
        if (state === 'data') {
          const n = Math.min(left, d.length - i)
          out.push(d.subarray(i, i + n))
          i += n
          left -= n
          if (left === 0) state = 'crlf'
          continue
        }
        const b = d[i++]!
        if (b === CR) continue
        if (++lineLength > MAX_LINE) throw new Error('chunk line too long')
        if (state === 'size') {
          const v = hexValue(b)
          if (v !== -1 && lineLength === digits + 1) {
            if (++digits > MAX_SIZE_DIGITS) throw new Error('malformed chunk size')
            left = left * 16 + v
          } else if (b === LF) endOfSizeLine()
          else if (b === SEMI) state = 'ext'
          else if (b !== SP && b !== TAB) throw new Error('malformed chunk size')
        } else if (b === LF) {
          if (state === 'ext') endOfSizeLine()
          else if (state === 'crlf') (state = 'size'), (lineLength = 0)
          else if (lineLength === 1)
            state = 'done' // trailer: the empty line ends the body
          else lineLength = 0
        }
      }
      return out
    },
    done: () => state === 'done',
    endOk: () => state === 'done',
  }
}
