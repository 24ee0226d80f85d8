// A streaming upstream POST over one HTTP/1.1 connection (Bun.connect), used for event streams
// instead of fetch: Bun's fetch keeps reading a response body into memory (about 1–2 MB per
// stream) whether or not it is consumed, so 200 clients that stop reading cost ~400 MB. Here the
// socket is paused while a read is waiting for the consumer, so a slow client holds back its
// upstream through TCP flow control (docs/drain.md "Slow clients"). No redirects, no proxies,
// no compression (identity is asked for); the connection is not reused.
import { bodyDecoder, type BodyDecoder } from './chunked.ts'

const MAX_HEAD = 64 * 1024
const enc = new TextEncoder()

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

/** Resolves with the response once its head arrived; its body is read only as it is consumed. */
export function streamingPost(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<Response> {
  const target = new URL(url)
  const tls = target.protocol === 'https:'
  const port = Number(target.port || (tls ? 443 : 80))
  const payload = enc.encode(body)
  const lines = [`POST ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`, `Content-Length: ${payload.length}`, 'Connection: close', 'Accept-Encoding: identity']
  for (const [k, v] of Object.entries(headers)) if (!/^(host|content-length|connection|accept-encoding|transfer-encoding)$/i.test(k)) lines.push(`${k}: ${v}`)
  const request = new Uint8Array([...enc.encode(lines.join('\r\n') + '\r\n\r\n'), ...payload])

  return new Promise<Response>((resolve, reject) => {
    let head = ''
    let decoder: BodyDecoder | undefined
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined
    let socket: Awaited<ReturnType<typeof Bun.connect>> | undefined
    let settled = false
    let written = 0
    const fail = (err: Error) => {
      if (!settled) ((settled = true), reject(err))
      else
        try {
          controller?.error(err)
        } catch {}
      socket?.terminate()
    }
    const onAbort = () => fail(new Error('aborted'))
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    const deliver = (parts: Uint8Array[]) => {
      // Each data event has its own buffer (Bun does not reuse it), so views are enqueued as is.
      for (const p of parts) if (p.length > 0) controller!.enqueue(p)
      if (decoder!.done()) {
        signal.removeEventListener('abort', onAbort)
        controller!.close()
        socket?.end()
      } else if ((controller!.desiredSize ?? 0) <= 0) socket?.pause()
    }
    const onHead = (data: Uint8Array, s: NonNullable<typeof socket>) => {
      head += new TextDecoder('latin1').decode(data)
      const end = head.indexOf('\r\n\r\n')
      if (end === -1) return head.length > MAX_HEAD ? fail(new Error('upstream head too large')) : undefined
      const { status, headers: h } = parseHead(head.slice(0, end))
      // latin1 decodes one character per byte, so the head's length counts bytes.
      const rest = data.subarray(data.length - (head.length - end - 4))
      decoder = bodyDecoder(h)
      const stream = new ReadableStream<Uint8Array>(
        {
          start: (c) => void (controller = c),
          pull: () => void s.resume(),
          cancel: () => (signal.removeEventListener('abort', onAbort), s.terminate()),
        },
        { highWaterMark: 0 },
      )
      settled = true
      resolve(new Response(stream, { status: status < 200 ? 502 : status, headers: h }))
      deliver(decoder.push(rest))
    }
    Bun.connect({
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port,
      tls: tls ? { serverName: target.hostname } : undefined,
      socket: {
        open(s) {
          socket = s
          written = s.write(request)
        },
        drain(s) {
          if (written < request.length) written += s.write(request.subarray(written))
        },
        data(s, data) {
          try {
            if (!decoder) onHead(data, s)
            else deliver(decoder.push(data))
          } catch (e) {
            fail(e instanceof Error ? e : new Error(String(e)))
          }
        },
        close() {
          if (!settled) return fail(new Error('upstream closed the connection before answering'))
          if (decoder?.endOk() && !decoder.done()) return deliver([])
          if (!decoder?.done()) fail(new Error('upstream closed the connection mid-body'))
        },
        error: (_s, err) => fail(err),
        connectError: (_s, err) => fail(err),
      },
    }).catch((e) => fail(e instanceof Error ? e : new Error(String(e))))
  })
}
