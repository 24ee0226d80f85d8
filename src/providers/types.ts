// What an upstream adapter provides: canonical request → upstream body, upstream JSON →
// canonical response, upstream SSE events → canonical events. Each provider folder assembles one
// in its adapter.ts; registry.ts has them by gateway protocol.
import type { CEvent, CRequest, CResponse } from '../core/canonical.ts'
import type { GatewayProtocol } from '../core/gateway.ts'
import type { SseEvent } from '../lib/sse/parse.ts'

export interface StreamDecoder {
  push(ev: SseEvent): CEvent[]
  /** The upstream stream ended; returns the final events (finish) or throws if it was cut short. */
  end(): CEvent[]
  /** The upstream's own id of the answer (chat chunk id, Anthropic message id, response id), once seen. */
  upstreamId(): string | undefined
}

/** Upstream bytes → events: SSE (lib/sse/parse.ts) unless the adapter frames its stream otherwise (AWS event stream). */
export interface EventSource {
  push(chunk: Uint8Array): SseEvent[]
  end(): SseEvent[]
}

export interface UpstreamAdapter {
  /** The endpoint under the gateway's baseUrl, when it is one for every model and both answer kinds. */
  path: string
  /** The endpoint of one model's JSON or stream answer, when it names the model (Bedrock, Vertex). */
  modelPath?(model: string, stream: boolean): string
  /** The protocol its answers are in, when not its own gateway protocol's: a client speaking it gets them passed through. */
  speaks?: GatewayProtocol
  /** How a stream's bytes become events; absent: SSE. */
  events?(): EventSource
  headers(apiKey: string | undefined, passHeaders: Record<string, string>): Record<string, string>
  body(req: CRequest, upstreamModel: string, defaultMaxTokens: number): string
  /** The same-protocol pass-through body: the caller's own JSON with the upstream model name. */
  passthroughBody(raw: Record<string, unknown>, upstreamModel: string, stream: boolean): string
  /** The upstream's JSON answer, an object but otherwise unchecked (read through the provider's wire.ts). */
  parseResponse(json: Record<string, unknown>): CResponse
  streamDecoder(): StreamDecoder
}
