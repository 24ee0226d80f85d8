// The OpenAI chat-completions upstream: canonical request → body (request.ts), JSON → canonical
// (response.ts), chunks → canonical events (stream-decoder.ts); and the same-protocol body
// (passthrough.ts).
import { openAiHeaders } from '../openai-headers.ts'
import type { UpstreamAdapter } from '../types.ts'
import { chatPassthroughBody } from './passthrough.ts'
import { chatBody } from './request.ts'
import { parseChatResponse } from './response.ts'
import { chatStreamDecoder } from './stream-decoder.ts'

export const openAiChatAdapter: UpstreamAdapter = {
  path: '/chat/completions',
  headers: (apiKey) => openAiHeaders(apiKey),
  passthroughBody: chatPassthroughBody,
  body: (req, model) => chatBody(req, model),
  parseResponse: parseChatResponse,
  streamDecoder: chatStreamDecoder,
}
