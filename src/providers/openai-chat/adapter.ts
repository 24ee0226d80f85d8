// The OpenAI chat-completions upstream: canonical request → body, JSON → canonical, chunks →
// canonical events; and the same-protocol pass-through body (request.ts).
import type { UpstreamAdapter } from '../adapter.ts'
import { chatBody } from './canonical-request.ts'
import { parseChatResponse } from './canonical-response.ts'
import { OPENAI_CHAT_PATH, openAiChatBody, openAiHeaders } from './request.ts'
import { chatStreamDecoder } from './stream-decoder.ts'

export const openAiChatAdapter: UpstreamAdapter = {
  path: OPENAI_CHAT_PATH,
  headers: (apiKey) => openAiHeaders(apiKey),
  passthroughBody: openAiChatBody,
  body: (req, model) => chatBody(req, model),
  parseResponse: parseChatResponse,
  streamDecoder: chatStreamDecoder,
}
