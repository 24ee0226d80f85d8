// The AWS event-stream framing: messages split anywhere across reads come out whole, each one's
// prelude and message CRCs checked; exceptions carry their status class; a corrupt message or a
// stream cut inside one ends the events with one corruptFrame exception.
import { describe, expect, test } from 'bun:test'
import { awsEventStream } from '../../../src/providers/transport/aws-event-stream.ts'
import { eventFrame, exceptionFrame } from '../../helpers/fake-clouds.ts'

const all = (frames: Uint8Array[]) => new Uint8Array(Buffer.concat(frames))

describe('awsEventStream', () => {
  const frames = [
    eventFrame('messageStart', { role: 'assistant' }),
    eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'héllo' } }),
    exceptionFrame('throttlingException', 'Too many requests'),
  ]
  const expected = [
    { event: 'messageStart', data: '{"messageStart":{"role":"assistant"}}' },
    { event: 'contentBlockDelta', data: '{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"héllo"}}}' },
    { event: 'exception', data: JSON.stringify({ exception: { type: 'throttlingException', message: 'Too many requests', status: 429 } }) },
  ]

  test('every split of the bytes gives the same events', () => {
    const bytes = all(frames)
    for (let at = 0; at <= bytes.length; at++) {
      const s = awsEventStream()
      const events = [...s.push(bytes.slice(0, at)), ...s.push(bytes.slice(at)), ...s.end()]
      expect(events).toEqual(expected)
    }
  })

  test('one byte at a time', () => {
    const s = awsEventStream()
    const events = [...all(frames)].flatMap((b) => s.push(new Uint8Array([b])))
    expect([...events, ...s.end()]).toEqual(expected)
  })

  test('a flipped byte in a message fails its CRC: the events before it, then one corruptFrame', () => {
    const bad = frames[1]!.slice()
    bad[bad.length - 6]! ^= 0x01
    const s = awsEventStream()
    const events = s.push(all([frames[0]!, bad, frames[2]!]))
    expect(events.slice(0, 1)).toEqual(expected.slice(0, 1))
    expect(events).toHaveLength(2)
    expect(JSON.parse(events[1]!.data).exception).toMatchObject({ type: 'corruptFrame', status: 502 })
    expect(s.push(frames[2]!)).toEqual([]) // nothing is framed past a corrupt message
  })

  test('a flipped prelude byte (the length) is caught by the prelude CRC', () => {
    const bad = frames[0]!.slice()
    bad[3]! ^= 0x01
    const events = awsEventStream().push(bad)
    expect(events).toHaveLength(1)
    expect(JSON.parse(events[0]!.data).exception.type).toBe('corruptFrame')
  })

  test('a stream cut inside a message ends with corruptFrame; one cut between messages ends cleanly', () => {
    const s = awsEventStream()
    expect(s.push(all(frames).slice(0, frames[0]!.length + 5))).toEqual(expected.slice(0, 1))
    expect(JSON.parse(s.end()[0]!.data).exception.type).toBe('corruptFrame')
    const clean = awsEventStream()
    clean.push(frames[0]!)
    expect(clean.end()).toEqual([])
  })
})
