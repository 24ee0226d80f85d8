// The anthropic-messages wire module holds the wire contract (../wire-contract.ts).
import { anthropicStreamDecoder } from '../../../src/providers/anthropic-messages/stream-decoder.ts'
import { parseAnthropicEvent } from '../../../src/providers/anthropic-messages/wire.ts'
import { wireContract } from '../wire-contract.ts'

wireContract('anthropic-messages', {
  parse: parseAnthropicEvent,
  decoder: anthropicStreamDecoder,
  badShapes: [
    '{}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":4}}',
    '{"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}',
    '{"type":"message_start","message":"m"}',
  ],
  passes: '{"type":"ping"}',
})
