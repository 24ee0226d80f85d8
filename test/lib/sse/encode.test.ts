// The headers of every outbound event stream: an event-stream content type, never cached or buffered.
import { expect, test } from 'bun:test'
import { SSE_HEADERS } from '../../../src/lib/sse/encode.ts'

test('an event stream is declared, uncached, and not buffered by a proxy', () => {
  const headers = new Headers(SSE_HEADERS)
  expect(headers.get('content-type')?.split(';')[0]).toBe('text/event-stream')
  expect(headers.get('content-type')).toContain('charset=utf-8')
  expect(headers.get('cache-control')).toBe('no-cache')
  expect(headers.get('x-accel-buffering')).toBe('no')
  expect(headers.get('connection')).toBe('keep-alive')
})

test('a Response built with them reads back the same content type', async () => {
  const res = new Response('data: {}\n\n', { headers: SSE_HEADERS })
  expect(res.headers.get('content-type')).toBe(SSE_HEADERS['content-type'])
  expect(await res.text()).toBe('data: {}\n\n')
})
