// A streaming upstream POST over HTTP/1.1 (Bun.connect), used for event streams instead of
// fetch: Bun's fetch keeps reading a response body into memory (about 1–2 MB per stream)
// whether or not it is consumed, so 200 clients that stop reading cost ~400 MB. Here the socket
// is paused while a read waits for the consumer, so a slow client holds back its upstream
// through TCP flow control (docs/drain.md "Slow clients"). Connections are kept alive and reused
// (h1-pool.ts). No redirects, no proxies, no compression (identity is asked for).
import { bodyDecoder, type BodyDecoder } from './chunked.ts'
import { ByteQueue } from './byte-queue.ts'
import { acquire, release, send, type Conn } from './h1-pool.ts'

const MAX_HEAD = 64 * 1024
const BUFFER_BYTES = 64 * 1024
const CHUNK_BYTES = 64 * 1024
const enc = new TextEncoder()
const latin1 = new TextDecoder('latin1')
const CR = 13
const LF = 10

/** The index in `data` just past the head's blank line (CRLF CRLF), which may begin in `before`; -1 if not there. */
function headEnd(data: Uint8Array, before: string): number {
  const at = (j: number, back: number) => (j >= back ? data[j - back] : before.charCodeAt(before.length - (back - j)))
  for (let j = data.indexOf(LF); j !== -1; j = data.indexOf(LF, j + 1))
    if (at(j, 1) === CR && at(j, 2) === LF && at(j, 3) === CR) return j + 1
  return -1
}

function parseHead(text: string): { status: number; headers: Headers } {
  const [statusLine, ...lines] = text.split('\r\n')
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')
  if (!m) throw new Error('malformed upstream status line')
  const headers = new Headers()
  for (const l of lines) {
    const colon = l.indexOf(':')
    if (colon > 0) headers.append(l.slice(0, colon).trim(), l.slice(colon + 1).trim())
  }
  return { status: Number(m[1]), headers }
}

/** Headers this client writes itself (framing, connection): a caller's own are left out. */
const OWN_HEADERS = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'transfer-encoding', 'keep-alive'])

/** The request's head and body as one string, encoded once (no separate buffers joined by a copy). */
function requestBytes(target: URL, headers: Record<string, string>, body: string): Uint8Array {
  let head = `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nAccept-Encoding: identity\r\n`
  for (const k in headers) if (!OWN_HEADERS.has(k.toLowerCase())) head += `${k}: ${headers[k]}\r\n`
  return enc.encode(`${head}\r\n${body}`)
}

/**
 * A connection for `target`, or a rejection as soon as `signal` aborts: Bun.connect has no
 * signal, and a connect to a host that drops packets waits for the kernel's SYN retries (about
 * two minutes), which would hold back the timeout and the failover to the next route. A
 * connection that opens after the abort is parked for reuse.
 */
function acquireUnlessAborted(target: URL, signal: AbortSignal): Promise<{ conn: Conn; reused: boolean }> {
  if (signal.aborted) return Promise.reject(new Error('aborted'))
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'))
    signal.addEventListener('abort', onAbort, { once: true })
    acquire(target).then(
      (got) => {
        signal.removeEventListener('abort', onAbort)
        if (signal.aborted) release(got.conn, target.origin)
        else resolve(got)
      },
      (e) => {
        signal.removeEventListener('abort', onAbort)
        reject(e)
      },
    )
  })
}

/** Resolves with the response once its head arrived; its body is read only as it is consumed. */
export async function streamingPost(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<Response> {
  const target = new URL(url)
  const request = requestBytes(target, headers, body)
  for (let attempt = 0; ; attempt++) {
    const { conn, reused } = await acquireUnlessAborted(target, signal)
    try {
      return await exchange(conn, target.origin, request, signal)
    } catch (e) {
      // A kept-alive connection the upstream closed just before reuse: retry once on a new one.
      if (!(reused && attempt === 0 && e instanceof StaleConnection)) throw e
    }
  }
}

class StaleConnection extends Error {}

function exchange(conn: Conn, origin: string, request: Uint8Array, signal: AbortSignal): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let head = ''
    let received = false
    let decoder: BodyDecoder | undefined
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined
    let settled = false
    let keepAlive = true
    const fail = (err: Error) => {
      signal.removeEventListener('abort', onAbort)
      if (!settled) (settled = true), reject(err)
      else
        try {
          controller?.error(err)
        } catch {}
      conn.data.exchange = undefined
      conn.terminate()
    }
    const onAbort = () => fail(new Error('aborted'))
    signal.addEventListener('abort', onAbort, { once: true })
    if (signal.aborted) return onAbort()
    // Body bytes wait here until the consumer reads, handed out at most CHUNK_BYTES per read;
    // reading pauses once BUFFER_BYTES wait (one socket read may bring more: up to 512 KiB).
    const queue = new ByteQueue()
    let waiting = false
    const handOut = () => {
      const chunk = queue.take(CHUNK_BYTES)
      if (chunk) (waiting = false), controller!.enqueue(chunk)
    }
    const deliver = (parts: Uint8Array[]) => {
      // Each data event has its own buffer (Bun does not reuse it), so views are kept as is.
      for (const p of parts) queue.push(p)
      if (decoder!.done()) {
        while (queue.size > 0) handOut()
        signal.removeEventListener('abort', onAbort)
        controller!.close()
        if (keepAlive) release(conn, origin)
        else (conn.data.exchange = undefined), conn.end()
        return
      }
      if (waiting) handOut()
      if (queue.size >= BUFFER_BYTES) conn.pause()
    }
    const pull = () => {
      if (queue.size > 0) handOut()
      else waiting = true
      if (queue.size < BUFFER_BYTES) conn.resume()
    }
    const onHead = (data: Uint8Array) => {
      // Only the head is decoded (latin1: one character per byte); the body after it stays bytes.
      const end = headEnd(data, head)
      head += latin1.decode(end === -1 ? data : data.subarray(0, end))
      if (end === -1) return head.length > MAX_HEAD ? fail(new Error('upstream head too large')) : undefined
      const { status, headers } = parseHead(head.slice(0, head.length - 4))
      keepAlive = !/close/i.test(headers.get('connection') ?? '')
      const rest = data.subarray(end)
      decoder = bodyDecoder(headers)
      // A body that runs until the connection closes leaves nothing to reuse.
      keepAlive &&= headers.has('content-length') || /chunked/i.test(headers.get('transfer-encoding') ?? '')
      const stream = new ReadableStream<Uint8Array>(
        {
          start: (c) => void (controller = c),
          pull,
          cancel: () => fail(new Error('cancelled')),
        },
        { highWaterMark: 0 },
      )
      // A status that cannot carry a body (1xx, 204, 205, 304) is no answer to a stream request.
      const response = new Response(stream, {
        status: status < 200 || status === 204 || status === 205 || status === 304 ? 502 : status,
        headers,
      })
      settled = true
      resolve(response)
      deliver(decoder.push(rest))
    }
    const written = send(
      conn,
      {
        data(data) {
          received = true
          try {
            if (!decoder) onHead(data)
            else deliver(decoder.push(data))
          } catch (e) {
            fail(e instanceof Error ? e : new Error(String(e)))
          }
        },
        close() {
          signal.removeEventListener('abort', onAbort)
          if (!settled)
            return fail(
              received
                ? new Error('upstream closed the connection before answering')
                : new StaleConnection('connection closed before any answer'),
            )
          if (decoder?.endOk() && !decoder.done()) return deliver([])
          if (!decoder?.done()) fail(new Error('upstream closed the connection mid-body'))
        },
        error: (err) => fail(err),
      },
      request,
    )
    if (written < 0) fail(new StaleConnection('connection closed before the request was sent'))
  })
}
