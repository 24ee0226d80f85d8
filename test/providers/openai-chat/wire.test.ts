// The openai-chat wire module holds the wire contract (../wire-contract.ts).
import { chatStreamDecoder } from '../../../src/providers/openai-chat/stream-decoder.ts'
import { parseChatEvent } from '../../../src/providers/openai-chat/wire.ts'
import { wireContract } from '../wire-contract.ts'

wireContract('openai-chat', {
  parse: parseChatEvent,
  decoder: chatStreamDecoder,
  badShapes: ['{"choices":5}', '{"choices":[null]}', '{"choices":[{"delta":{"content":9}}]}', '{"usage":"u"}'],
  passes: '{"choices":[{"index":0,"delta":{"content":"hi"}}]}',
})
