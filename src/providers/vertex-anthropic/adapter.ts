// Anthropic models on Google Vertex AI (docs/providers.md "Vertex AI: Claude and Gemini"): POST
// {baseUrl}/publishers/anthropic/models/{model}:rawPredict and :streamRawPredict (SSE), with the
// gateway's google-service-account token (or an access token as apiKey). Its answers are
// Anthropic's, so an Anthropic client's call passes through.
import type { UpstreamAdapter } from '../types.ts'
import { vertexAnthropicPassthroughBody } from './passthrough.ts'
import { vertexAnthropicBody } from './request.ts'
import { parseVertexAnthropicResponse } from './response.ts'
import { vertexAnthropicStreamDecoder } from './stream-decoder.ts'

export const vertexAnthropicAdapter: UpstreamAdapter = {
  path: '/publishers/anthropic/models',
  // Vertex's model ids carry their version after an `@`, sent as it is (as Google's own clients do).
  modelPath: (model, stream) =>
    `/publishers/anthropic/models/${encodeURIComponent(model).replaceAll('%40', '@')}:${stream ? 'streamRawPredict' : 'rawPredict'}`,
  speaks: 'anthropic-messages',
  headers(apiKey) {
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    }
  },
  passthroughBody: vertexAnthropicPassthroughBody,
  body: vertexAnthropicBody,
  parseResponse: parseVertexAnthropicResponse,
  streamDecoder: vertexAnthropicStreamDecoder,
}
