// The openai-responses wire module holds the wire contract (../wire-contract.ts).
import { responsesStreamDecoder } from '../../../src/providers/openai-responses/stream-decoder.ts'
import { parseResponsesEvent } from '../../../src/providers/openai-responses/wire.ts'
import { wireContract } from '../wire-contract.ts'

wireContract('openai-responses', {
  parse: parseResponsesEvent,
  decoder: responsesStreamDecoder,
  badShapes: [
    '{}',
    '{"type":7}',
    '{"type":"response.completed","response":{"usage":"u"}}',
    '{"type":"response.output_item.added","item":3}',
  ],
  passes: '{"type":"response.output_text.delta","delta":"hi"}',
})
