// The streaming upstream client (HTTP/1.1 over Bun.connect): kept-alive connections are reused,
// chunked and sized bodies are read, and a status that cannot carry a body is no answer.
import { describe, expect, test } from 'bun:test'
import { streamingPost } from '../../../src/providers/transport/h1-stream.ts'
import { unacceptingListener } from '../../helpers/unaccepting-listener.ts'

const enc = new TextEncoder()

describe('streaming upstream client', () => {
  test('reuses a kept-alive connection, reads chunked and sized bodies, and maps a bodiless status to 502', async () => {
    const ports = new Set<number>()
    const server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      async fetch(req, srv) {
        ports.add(srv.requestIP(req)!.port)
        const body = await req.text()
        if (body === 'empty') return new Response(null, { status: 204 })
        if (body === 'sized') return new Response('fixed body')
        return new Response(new ReadableStream({ start: (c) => (c.enqueue(enc.encode('a')), c.enqueue(enc.encode('b')), c.close()) }))
      },
    })
    try {
      const url = `http://127.0.0.1:${server.port}/x`
      const signal = new AbortController().signal
      expect(await (await streamingPost(url, {}, 'chunked', signal)).text()).toBe('ab')
      expect(await (await streamingPost(url, {}, 'sized', signal)).text()).toBe('fixed body')
      expect((await streamingPost(url, {}, 'empty', signal)).status).toBe(502)
      expect(ports.size).toBe(1)
    } finally {
      server.stop(true)
    }
  })

  test('a head whose blank line is split across reads, at every place, is read and the body after it kept', async () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 5\r\n\r\nhello'
    const blank = head.indexOf('\r\n\r\n')
    for (const cut of [blank, blank + 1, blank + 2, blank + 3, blank + 4]) {
      const server = Bun.listen({
        hostname: '127.0.0.1',
        port: 0,
        socket: {
          data(s) {
            s.write(head.slice(0, cut))
            setTimeout(() => s.write(head.slice(cut)), 20)
          },
        },
      })
      try {
        const res = await streamingPost(`http://127.0.0.1:${server.port}/x`, {}, '{}', new AbortController().signal)
        expect([cut - blank, res.status, res.headers.get('content-type'), await res.text()]).toEqual([
          cut - blank,
          200,
          'text/event-stream',
          'hello',
        ])
      } finally {
        server.stop(true)
      }
    }
  })

  test('an abort while the connect gets no answer rejects at once, not after the kernel gives up', async () => {
    const silent = await unacceptingListener()
    try {
      const controller = new AbortController()
      const pending = streamingPost(`http://127.0.0.1:${silent.port}/x`, {}, '{}', controller.signal)
      setTimeout(() => controller.abort(), 100)
      // Without the abort reaching the connect this waits ~2 min, past the test's 10 s limit.
      await expect(pending).rejects.toThrow('aborted')
    } finally {
      silent.stop()
    }
  }, 10_000)
})
