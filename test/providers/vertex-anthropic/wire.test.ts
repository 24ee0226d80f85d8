// The Vertex AI Anthropic wire (Anthropic's own SSE, read by the Anthropic wire's checked parse
// through the Vertex decoder) holds the wire contract (../wire-contract.ts) on the fake's Vertex
// streams: answers with reasoning, text in pieces, tool calls and usage, and none. An Anthropic
// client's stream passes through (the messages tee); the others are translated.
import { expect, test } from 'bun:test'
import { parseAnthropicEvent } from '../../../src/providers/anthropic-messages/wire.ts'
import { vertexAnthropicStreamDecoder } from '../../../src/providers/vertex-anthropic/stream-decoder.ts'
import { vertexAnthropicAdapter } from '../../../src/providers/vertex-anthropic/adapter.ts'
import { vertexAnthropic } from '../../../src/testing/fake-upstream/wires/vertex-anthropic.ts'
import { ANSWERS, sseStreams, sseUnits } from '../cloud-samples.ts'
import { sampledWireContract } from '../wire-contract.ts'

const parse = (data: string) => vertexAnthropicStreamDecoder().parse(data)

test('the Vertex decoder reads with the Anthropic wire’s parse, and an Anthropic client’s stream passes through', () => {
  expect(vertexAnthropicStreamDecoder().parse).toBe(parseAnthropicEvent)
  expect(vertexAnthropicAdapter.speaks).toBe('anthropic-messages')
})

sampledWireContract('vertex-anthropic', {
  parse,
  decoder: vertexAnthropicStreamDecoder,
  streams: [
    ...sseStreams((a) => vertexAnthropic.frames(a)),
    {
      name: 'overloaded mid-stream',
      events: sseUnits([...vertexAnthropic.frames(ANSWERS.text!).slice(0, 4), { data: vertexAnthropic.streamError('Overloaded', 529) }]),
    },
  ],
  native: 'messages',
  done: 'sentinel',
  atLeast: 40,
  badShapes: [
    '{}',
    '{"type":7}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":4}}',
    '{"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}',
    '{"type":"content_block_start","index":0,"content_block":"b"}',
    '{"type":"message_start","message":"m"}',
    '{"type":"message_delta","delta":{},"usage":[]}',
  ],
  passes: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}',
})
