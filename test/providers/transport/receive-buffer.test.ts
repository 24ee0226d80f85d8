// The upstream stream socket's kernel receive buffer bounds what one read brings, and so what a
// stalled stream holds in memory (docs/drain.md "Memory").
import { afterAll, describe, expect, test } from 'bun:test'
import { limitReceiveBuffer } from '../../../src/providers/transport/receive-buffer.ts'

const TOTAL = 4 * 1024 * 1024
const payload = new Uint8Array(TOTAL).fill(120)

// Once asked (any byte, as an upstream answers a request), writes 4 MB as fast as the socket takes it.
const server = Bun.listen<{ at: number }>({
  hostname: '127.0.0.1',
  port: 0,
  socket: {
    open(s) {
      s.data = { at: -1 }
    },
    data(s) {
      if (s.data.at === -1) s.data.at = s.write(payload)
    },
    drain(s) {
      if (s.data.at >= 0 && s.data.at < TOTAL) s.data.at += s.write(payload.subarray(s.data.at))
    },
  },
})
afterAll(() => server.stop(true))

/** Connects, limits (as h1-pool.ts does: before any byte is asked for), asks, stops reading for a
 *  while so the kernel fills up, then reads it all; the largest read. */
async function largestRead(limit: number | undefined): Promise<number> {
  let largest = 0
  let got = 0
  const { promise, resolve } = Promise.withResolvers<void>()
  const socket = await Bun.connect({
    hostname: '127.0.0.1',
    port: server.port,
    socket: {
      data(s, d) {
        if (got === 0) {
          s.pause()
          setTimeout(() => s.resume(), 300)
        }
        got += d.length
        largest = Math.max(largest, d.length)
        if (got >= TOTAL) resolve()
      },
    },
  })
  if (limit !== undefined) expect(limitReceiveBuffer((socket as typeof socket & { fd: number }).fd, limit)).toBe(true)
  socket.write('go')
  await promise
  socket.end()
  return largest
}

describe.if(process.platform === 'linux')('limitReceiveBuffer', () => {
  test('one read brings about the limit (the kernel doubles it), where an unlimited socket reads far more at once', async () => {
    const limited = await largestRead(64 * 1024)
    const unlimited = await largestRead(undefined)
    expect(limited).toBeLessThanOrEqual(160 * 1024)
    expect(unlimited).toBeGreaterThan(256 * 1024)
  })

  test('an invalid descriptor is refused, not an error', () => {
    expect(limitReceiveBuffer(-1, 65_536)).toBe(false)
  })
})
