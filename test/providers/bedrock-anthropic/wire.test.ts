// The Bedrock Anthropic wire module holds the wire contract (../wire-contract.ts) on its event
// stream's message payloads (`chunk` members carrying one Anthropic event as base64): Anthropic's
// recorded streams and the fake's answers, framed as Bedrock frames them. A garbled or cut
// Anthropic event inside a whole message fails as the Anthropic wire's own parse fails it; a
// message whose CRC fails or a stream cut inside one is the transport's corruptFrame exception,
// which the wire reads as a 502 and the decoder fails the stream with.
import { expect, test } from 'bun:test'
import { parseBedrockEvent } from '../../../src/providers/bedrock-anthropic/wire.ts'
import { bedrockAnthropicStreamDecoder } from '../../../src/providers/bedrock-anthropic/stream-decoder.ts'
import { bedrockAnthropic } from '../../../src/testing/fake-upstream/wires/bedrock-anthropic.ts'
import { anthropicEventsOf, bedrockChunks, exceptionFrame } from '../../helpers/fake-clouds.ts'
import { fixtureSse } from '../../helpers/fixtures.ts'
import { ANSWERS, awsUnits, frameBytes } from '../cloud-samples.ts'
import { sampledWireContract } from '../wire-contract.ts'
import { AWS_FRAMING, mutations, type Mutate, readAs, type SampleStream } from '../wire-fuzz.ts'

const b64 = (event: unknown) => Buffer.from(typeof event === 'string' ? event : JSON.stringify(event)).toString('base64')
const chunk = (event: unknown) => JSON.stringify({ chunk: { bytes: b64(event) } })

const streams: SampleStream[] = [
  ...['stream-text.sse', 'stream-thinking.chunks.jsonl', 'stream-tool-use-two.sse'].map((file) => ({
    name: `anthropic-messages/${file} on Bedrock`,
    events: awsUnits(bedrockChunks(anthropicEventsOf(fixtureSse('anthropic-messages', file)))),
  })),
  ...Object.entries(ANSWERS).map(([name, a]) => ({ name: `fake ${name}`, events: awsUnits(frameBytes(bedrockAnthropic.frames(a))) })),
  {
    name: 'throttled mid-stream',
    events: awsUnits([
      ...frameBytes(bedrockAnthropic.frames(ANSWERS.text!)).slice(0, 3),
      exceptionFrame('throttlingException', 'Slow down'),
    ]),
  },
]

/** The payload's own mutations, and the Anthropic event inside it mutated in a well-formed chunk. */
const mutate: Mutate = (unit, next) => {
  const out = mutations(unit.data, next)
  const bytes = (JSON.parse(unit.data) as { bytes?: unknown }).bytes
  if (typeof bytes !== 'string') return out
  const inner = Buffer.from(bytes, 'base64').toString('utf8')
  return [...out, ...mutations(inner, next).map((m) => JSON.stringify({ bytes: b64(m), p: 'abc' }))]
}

sampledWireContract('bedrock-anthropic', {
  parse: parseBedrockEvent,
  decoder: bedrockAnthropicStreamDecoder,
  streams,
  framing: AWS_FRAMING,
  mutate,
  done: 'not_object',
  atLeast: 60,
  badShapes: [
    '{"chunk":{}}',
    '{"chunk":"c"}',
    '{"chunk":{"bytes":7}}',
    chunk({}),
    chunk({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 4 } }),
    chunk({ type: 'message_start', message: 'm' }),
  ],
  passes: chunk({ type: 'ping' }),
})

test('an exception message reads as an exception with its status class; a member of another name is skipped', () => {
  const [throttled] = readAs(AWS_FRAMING, [{ event: 'exception:throttlingException', data: '{"message":"Slow down"}' }])
  expect(parseBedrockEvent(throttled!)).toEqual({
    ok: true,
    value: { kind: 'exception', exception: { type: 'throttlingException', message: 'Slow down', status: 429 } },
  })
  expect(parseBedrockEvent(readAs(AWS_FRAMING, [{ event: 'somethingNew', data: '{"x":1}' }])[0]!)).toEqual({
    ok: true,
    value: { kind: 'other' },
  })
})

test('an Anthropic event cut inside a whole chunk fails as the Anthropic parse fails it (not_json)', () => {
  const r = parseBedrockEvent(chunk('{"type":"content_block_delta","ind'))
  expect(r.ok ? 'ok' : r.failure.reason).toBe('not_json')
})

test('a message with a bad CRC, or a stream cut inside one: corruptFrame, a 502 the decoder fails the stream with, after the text delivered', () => {
  const frames = frameBytes(bedrockAnthropic.frames(ANSWERS.text!))
  const whole = new Uint8Array(Buffer.concat(frames))
  const upTo = (n: number) => frames.slice(0, n).reduce((s, f) => s + f.length, 0)
  const flipped = whole.slice()
  flipped[upTo(3) + 20]! ^= 0x01 // inside the fourth message (the first text delta)
  for (const bytes of [flipped, whole.slice(0, upTo(4) + 7)]) {
    const source = AWS_FRAMING.source()
    const events = [...source.push(bytes), ...source.end()]
    const decoder = bedrockAnthropicStreamDecoder()
    const read = events.map((e) => {
      const r = decoder.parse(e.data)
      if (!r.ok) throw new Error(`unreadable: ${e.data}`)
      return decoder.read(r.value)
    })
    const last = read.at(-1)!
    expect(last).toEqual([{ type: 'error', message: expect.stringMatching(/^corruptFrame: /), status: 502 }])
    expect(decoder.complete()).toBe(false)
    const text = read.flat().flatMap((e) => (e.type === 'text' ? [e.text] : []))
    expect(decoder.deliveredChars()).toBe(text.join('').length)
  }
})
