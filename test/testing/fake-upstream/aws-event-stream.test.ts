// The fake's AWS event-stream messages, read byte by byte as the format defines them: total and
// header lengths, the prelude's CRC32, the headers, the JSON payload and the message's CRC32.
import { expect, test } from 'bun:test'
import { eventFrame, exceptionFrame } from '../../../src/testing/fake-upstream/aws-event-stream.ts'

function read(m: Uint8Array) {
  const v = new DataView(m.buffer, m.byteOffset, m.byteLength)
  const total = v.getUint32(0)
  const headerLength = v.getUint32(4)
  const headers: Record<string, string> = {}
  for (let at = 12; at < 12 + headerLength; ) {
    const nameLength = m[at]!
    const name = new TextDecoder().decode(m.subarray(at + 1, at + 1 + nameLength))
    at += 1 + nameLength
    expect(m[at]).toBe(7) // a string value
    const valueLength = v.getUint16(at + 1)
    headers[name] = new TextDecoder().decode(m.subarray(at + 3, at + 3 + valueLength))
    at += 3 + valueLength
  }
  return {
    total,
    preludeCrc: v.getUint32(8) === Bun.hash.crc32(m.subarray(0, 8)),
    messageCrc: v.getUint32(total - 4) === Bun.hash.crc32(m.subarray(0, total - 4)),
    headers,
    payload: JSON.parse(new TextDecoder().decode(m.subarray(12 + headerLength, total - 4))),
  }
}

test('an event: its type in the headers, its JSON payload, both checksums right', () => {
  const m = eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'héllo' } })
  expect(read(m)).toEqual({
    total: m.length,
    preludeCrc: true,
    messageCrc: true,
    headers: { ':message-type': 'event', ':event-type': 'contentBlockDelta', ':content-type': 'application/json' },
    payload: { contentBlockIndex: 0, delta: { text: 'héllo' } },
  })
})

test('an exception: its type in the headers, its message in the payload', () => {
  const m = read(exceptionFrame('throttlingException', 'Too many requests'))
  expect([m.preludeCrc, m.messageCrc, m.headers[':message-type'], m.headers[':exception-type'], m.payload]).toEqual([
    true,
    true,
    'exception',
    'throttlingException',
    { message: 'Too many requests' },
  ])
})
