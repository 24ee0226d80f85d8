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

function chunkedDecoder(): BodyDecoder {
  let state: 'size' | 'data' | 'crlf' | 'trailer' | 'done' = 'size'
  let line: number[] = []
  let left = 0
  const sizeOf = (text: string): number => {
    const hex = text.split(';', 1)[0]!.trim()
    if (!/^[0-9a-fA-F]{1,12}$/.test(hex)) throw new Error('malformed chunk size')
    return parseInt(hex, 16)
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
        if (b !== LF) {
          if (line.length > 4096) throw new Error('chunk line too long')
          line.push(b)
          continue
        }
        const text = String.fromCharCode(...line)
        line = []
        if (state === 'crlf') state = 'size'
        else if (state === 'size') {
          left = sizeOf(text)
          state = left === 0 ? 'trailer' : 'data'
        } else if (text.length === 0) state = 'done'
      }
      return out
    },
    done: () => state === 'done',
    endOk: () => state === 'done',
  }
}
