// What an upstream adapter provides: canonical request → upstream body, upstream JSON →
// canonical response, upstream SSE events → canonical events. Each provider folder assembles one
// in its adapter.ts; registry.ts has them by gateway protocol.
import type { CEvent, CRequest, CResponse } from '../core/canonical.ts'
import type { SseEvent } from '../lib/sse/parse.ts'

export interface StreamDecoder {
  push(ev: SseEvent): CEvent[]
  /** The upstream stream ended; returns the final events (finish) or throws if it was cut short. */
  end(): CEvent[]
  /** The upstream's own id of the answer (chat chunk id, Anthropic message id, response id), once seen. */
  upstreamId(): string | undefined
}

export interface UpstreamAdapter {
  path: string
  headers(apiKey: string | undefined, passHeaders: Record<string, string>): Record<string, string>
  body(req: CRequest, upstreamModel: string, defaultMaxTokens: number): string
  /** The same-protocol pass-through body: the caller's own JSON with the upstream model name. */
  passthroughBody(raw: Record<string, unknown>, upstreamModel: string, stream: boolean): string
  /** The upstream's JSON answer, an object but otherwise unchecked (read through the provider's wire.ts). */
  parseResponse(json: Record<string, unknown>): CResponse
  streamDecoder(): StreamDecoder
}
