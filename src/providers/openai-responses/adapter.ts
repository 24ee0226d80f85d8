// The OpenAI responses upstream: canonical request → body, response object → canonical,
// events → canonical events; and the same-protocol pass-through body.
import { carriesAnthropic } from '../../core/reasoning-carrier.ts'
import type { UpstreamAdapter } from '../adapter.ts'
import { openAiHeaders } from '../openai-chat/request.ts'
import { responsesBody } from './canonical-request.ts'
import { parseResponsesResponse } from './canonical-response.ts'
import { responsesStreamDecoder } from './stream-decoder.ts'

export const openAiResponsesAdapter: UpstreamAdapter = {
  path: '/responses',
  headers: (apiKey) => openAiHeaders(apiKey),
  // The caller's own body, minus reasoning items that carry Anthropic's signature.
  passthroughBody: (raw, model) =>
    JSON.stringify({
      ...raw,
      model,
      ...(Array.isArray(raw.input) ? { input: raw.input.filter((i: any) => !carriesAnthropic(i ?? {})) } : {}),
    }),
  body: (req, model) => responsesBody(req, model),
  parseResponse: parseResponsesResponse,
  streamDecoder: responsesStreamDecoder,
}
