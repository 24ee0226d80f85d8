// The OpenAI responses upstream: canonical request → body (request.ts), response object →
// canonical (response.ts), events → canonical events (stream-decoder.ts); and the same-protocol
// body (passthrough.ts).
import { openAiHeaders } from '../openai-headers.ts'
import type { UpstreamAdapter } from '../types.ts'
import { responsesPassthroughBody } from './passthrough.ts'
import { responsesBody } from './request.ts'
import { parseResponsesResponse } from './response.ts'
import { responsesStreamDecoder } from './stream-decoder.ts'

export const openAiResponsesAdapter: UpstreamAdapter = {
  path: '/responses',
  headers: (apiKey) => openAiHeaders(apiKey),
  passthroughBody: responsesPassthroughBody,
  body: (req, model) => responsesBody(req, model),
  parseResponse: parseResponsesResponse,
  streamDecoder: responsesStreamDecoder,
}
