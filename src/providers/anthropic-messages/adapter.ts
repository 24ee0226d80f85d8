// The Anthropic messages upstream: canonical request → body (request.ts), JSON → canonical
// (response.ts), SSE → canonical events (stream-decoder.ts); and the same-protocol body
// (passthrough.ts).
import type { UpstreamAdapter } from '../types.ts'
import { anthropicPassthroughBody } from './passthrough.ts'
import { anthropicBody } from './request.ts'
import { parseAnthropicResponse } from './response.ts'
import { anthropicStreamDecoder } from './stream-decoder.ts'

export const anthropicAdapter: UpstreamAdapter = {
  path: '/messages',
  headers(apiKey, pass) {
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'anthropic-version': pass['anthropic-version'] ?? '2023-06-01',
      ...(pass['anthropic-beta'] ? { 'anthropic-beta': pass['anthropic-beta'] } : {}),
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
    }
  },
  passthroughBody: anthropicPassthroughBody,
  body: anthropicBody,
  parseResponse: parseAnthropicResponse,
  streamDecoder: anthropicStreamDecoder,
}
