// The Anthropic messages upstream: canonical request → body (request.ts), JSON → canonical
// (response.ts), SSE → canonical events (stream-decoder.ts); and the same-protocol body.
import { carriesOpenAi } from '../../core/reasoning-carrier.ts'
import type { UpstreamAdapter } from '../adapter.ts'
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
  // The caller's own body, minus thinking blocks that carry another vendor's reasoning.
  passthroughBody(raw, model) {
    const messages = Array.isArray(raw.messages)
      ? raw.messages.map((m: any) =>
          Array.isArray(m?.content) && m.content.some(carriesOpenAi)
            ? { ...m, content: m.content.filter((b: any) => !carriesOpenAi(b)) }
            : m,
        )
      : raw.messages
    return JSON.stringify({ ...raw, model, messages })
  },
  body: anthropicBody,
  parseResponse: parseAnthropicResponse,
  streamDecoder: anthropicStreamDecoder,
}
