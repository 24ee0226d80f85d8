// The Bedrock Converse wire module holds the wire contract (../wire-contract.ts) on its event
// stream's message payloads (each message named by its event type): the documented ConverseStream
// answers (converse-answers.ts) and the fake's, framed as Bedrock frames them. A message whose CRC
// fails or a stream cut inside one is the transport's corruptFrame exception, which the wire reads
// as a 502 and the decoder fails the stream with.
import { expect, test } from 'bun:test'
import { converseStreamDecoder } from '../../../src/providers/bedrock-converse/stream-decoder.ts'
import { parseConverseEvent } from '../../../src/providers/bedrock-converse/wire.ts'
import { bedrockConverse } from '../../../src/testing/fake-upstream/wires/bedrock-converse.ts'
import { CONVERSE_EXCEPTION, CONVERSE_TEXT, CONVERSE_TOOLS, converseFrames } from '../../helpers/converse-answers.ts'
import { ANSWERS, awsUnits, frameBytes } from '../cloud-samples.ts'
import { sampledWireContract } from '../wire-contract.ts'
import { AWS_FRAMING, readAs, type SampleStream } from '../wire-fuzz.ts'

const streams: SampleStream[] = [
  { name: 'CONVERSE_TEXT', events: awsUnits(converseFrames(CONVERSE_TEXT.stream)) },
  { name: 'CONVERSE_TOOLS', events: awsUnits(converseFrames(CONVERSE_TOOLS.stream)) },
  { name: 'CONVERSE_TEXT failing', events: awsUnits([...converseFrames(CONVERSE_TEXT.stream.slice(0, 3)), CONVERSE_EXCEPTION]) },
  ...Object.entries(ANSWERS).map(([name, a]) => ({ name: `fake ${name}`, events: awsUnits(frameBytes(bedrockConverse.frames(a))) })),
]

sampledWireContract('bedrock-converse', {
  parse: parseConverseEvent,
  decoder: converseStreamDecoder,
  streams,
  framing: AWS_FRAMING,
  done: 'not_object',
  atLeast: 50,
  badShapes: [
    '{}',
    '{"messageStop":"m"}',
    '{"metadata":null}',
    '{"contentBlockStop":[]}',
    '{"contentBlockDelta":{"delta":{"text":"x"}}}',
    '{"contentBlockStart":{"contentBlockIndex":"0","start":{}}}',
  ],
  passes: '{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"hi"}}}',
})

test('an exception message reads as an exception with its status class; an event of another type is skipped', () => {
  const [throttled] = readAs(AWS_FRAMING, [{ event: 'exception:throttlingException', data: '{"message":"Slow down"}' }])
  expect(parseConverseEvent(throttled!)).toEqual({
    ok: true,
    value: { type: 'exception', exceptionType: 'throttlingException', message: 'Slow down', status: 429 },
  })
  expect(parseConverseEvent(readAs(AWS_FRAMING, [{ event: 'somethingNew', data: '{"x":1}' }])[0]!)).toEqual({
    ok: true,
    value: { type: 'other' },
  })
})

test('a message with a bad CRC, or a stream cut inside one: corruptFrame, a 502 the decoder fails the stream with, after the text delivered', () => {
  const frames = converseFrames(CONVERSE_TEXT.stream)
  const whole = new Uint8Array(Buffer.concat(frames))
  const upTo = (n: number) => frames.slice(0, n).reduce((s, f) => s + f.length, 0)
  const flipped = whole.slice()
  flipped[upTo(2) + 20]! ^= 0x01 // inside the third message (the second text delta)
  for (const bytes of [flipped, whole.slice(0, upTo(2) + 7)]) {
    const source = AWS_FRAMING.source()
    const events = [...source.push(bytes), ...source.end()]
    const decoder = converseStreamDecoder()
    const read = events.map((e) => {
      const r = decoder.parse(e.data)
      if (!r.ok) throw new Error(`unreadable: ${e.data}`)
      return decoder.read(r.value)
    })
    expect(read.at(-1)).toEqual([{ type: 'error', message: expect.stringMatching(/^corruptFrame: /), status: 502 }])
    expect(decoder.complete()).toBe(false)
    expect(read.flat().flatMap((e) => (e.type === 'text' ? [e.text] : []))).toEqual(['Hello from '])
    expect(decoder.deliveredChars()).toBe('Hello from '.length)
  }
})
