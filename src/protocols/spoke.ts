// What each inbound protocol tells the /v1 pipeline (one object per protocol, each built in
// protocols/<p>/index.ts): how a body is parsed and decoded, how answers, errors and svc look,
// and how its own upstream kind is served by pass-through.
import type { CRequest, CResponse } from '../core/canonical.ts'
import type { GatewayError } from '../core/errors.ts'
import type { FrameTee, StreamEncoder } from '../core/frames.ts'
import type { GatewayProtocol, ModelKind } from '../core/gateway.ts'
import type { Usage } from '../core/usage.ts'

export type ProtocolName = 'chat' | 'messages' | 'responses' | 'embeddings'

/** One call as the protocol writes it back: its ids, the public model slug, the key's mode. */
export interface CallContext {
  requestId: string
  /** The id clients see in the body (responses: equals requestId). */
  publicId: string
  slug: string
  /** epoch seconds */
  created: number
  serviceMode: string
  /** Set when a fallback answered: the model the call asked for first (docs/failover.md "Model fallbacks"). */
  requestedModel?: string
}

/** What the svc extension of a served answer may report; each protocol picks its members. */
export interface SvcFacts {
  costMicros: bigint
  usageSource: 'upstream' | 'none'
  latencyMs: number
  gateway: string
  upstreamRequestId: string
  ctx: CallContext
}

export interface Spoke<Body> {
  name: ProtocolName
  /** The kind of catalog model it serves; another kind is refused (docs/api.md "Embeddings"). */
  kind: ModelKind
  /** The upstream protocol served by pass-through. */
  native: GatewayProtocol
  idPrefix: 'req' | 'resp'
  /** The response headers that carry the request id: x-request-id, and the protocol's own where its SDK reads another. */
  idHeaders: readonly string[]
  /**
   * A spoke served at its own path of its native gateways (embeddings: /embeddings), and how it
   * reads their JSON answer; the adapter's path and JSON.parse otherwise.
   */
  upstream?: { path: string; read: (text: string) => Record<string, unknown> }
  /** The validated body, or throws the protocol's VALIDATION_FAILED / BAD_REQUEST. */
  parse(raw: unknown): Body
  model(body: Body): string
  stream(body: Body): boolean
  /** fitChars: what must fit the context window when not the whole prompt (embeddings: the longest input). */
  estimateInput(body: Body): { promptChars: number; fitChars?: number; maxTokens: number | undefined; choices: number }
  decode(body: Body): CRequest
  /** The protocol's error envelope and status. */
  errorBody(err: GatewayError): { status: number; body: string }
  /** Headers forwarded to an upstream (e.g. anthropic-version). */
  passHeaders(headers: Headers): Record<string, string>
  /** A translated answer as this protocol's JSON. */
  encode(r: CResponse, ctx: CallContext): string
  /** A same-protocol upstream answer made public, and the usage it reported. */
  passthrough(text: string, parsed: Record<string, unknown>, ctx: CallContext): { body: string; usage: Usage | undefined }
  /** The svc member's JSON. */
  svc(facts: SvcFacts): string
  streamEncoder(ctx: CallContext): StreamEncoder
  /** The same-protocol stream stage: frames pass through, each chunk as its upstream's decoder parsed it. */
  tee(ctx: CallContext): FrameTee<unknown>
}
