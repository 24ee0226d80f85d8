// Sample streams of the cloud wires, built by the project's own fakes (the kit's fake upstream
// wires, test/helpers/fake-clouds.ts and converse-answers.ts), for the wire contract
// (wire-contract.ts): answers with reasoning, text in pieces, tool calls and usage, and none.
import type { SseEvent } from '../../src/lib/sse/parse.ts'
import { awsEventStream } from '../../src/providers/transport/aws-event-stream.ts'
import type { Answer, Frame } from '../../src/testing/fake-upstream/wires/wire.ts'
import type { SampleStream } from './wire-fuzz.ts'
import { SseParser } from '../../src/lib/sse/parse.ts'

const answer = (a: Partial<Answer>): Answer => ({
  id: 'msg_fake',
  model: 'fake-model',
  text: '',
  pieces: [],
  toolCalls: [],
  reasoning: undefined,
  usage: { input: 12, output: 9 },
  inputs: 1,
  dimensions: 0,
  asks: { streamUsage: true, base64: false },
  ...a,
})

/** Answers of every kind a cloud wire streams. */
export const ANSWERS: Record<string, Answer> = {
  text: answer({ text: 'Hello from the cloud, in pieces.', pieces: ['Hello ', 'from the cloud, ', 'in pieces.'] }),
  reasoning: answer({
    text: 'Forty-two.',
    pieces: ['Forty', '-two.'],
    reasoning: 'Think: six times seven.',
    usage: { input: 20, output: 30 },
  }),
  tools: answer({
    text: 'Checking.',
    pieces: ['Checking.'],
    toolCalls: [
      { id: 'call_1', name: 'get_weather', arguments: '{"location":"Paris"}' },
      { id: 'call_2', name: 'get_time', arguments: '{"zone":"CET"}' },
    ],
    usage: { input: 40, output: 25, cacheRead: 100, cacheWrite: 7 },
  }),
  unreported: answer({ text: 'No usage reported.', pieces: ['No usage ', 'reported.'], usage: null }),
}

/** AWS event-stream messages as units (event type, payload as sent), read back by the gateway's decoder. */
export function awsUnits(frames: Uint8Array[]): SseEvent[] {
  const s = awsEventStream()
  const events = [...s.push(new Uint8Array(Buffer.concat(frames))), ...s.end()]
  return events.map((e) => {
    const o = JSON.parse(e.data)
    if (e.event === 'exception') return { event: `exception:${o.exception.type}`, data: JSON.stringify({ message: o.exception.message }) }
    return { event: e.event, data: JSON.stringify(o[e.event!]) }
  })
}

/** A wire's frames (the fake's `frames`) as bytes. */
export const frameBytes = (frames: Frame[]): Uint8Array[] =>
  frames.map((f) => (typeof f.data === 'string' ? new TextEncoder().encode(f.data) : f.data))

/** SSE frames as events. */
export const sseUnits = (frames: Frame[]): SseEvent[] => new SseParser().push(new Uint8Array(Buffer.concat(frameBytes(frames))))

export const sseStreams = (frames: (a: Answer) => Frame[]): SampleStream[] =>
  Object.entries(ANSWERS).map(([name, a]) => ({ name, events: sseUnits(frames(a)) }))
