// What each inbound protocol tells the shared call pipeline (one object per protocol, see
// inbound-*.ts): how to validate and decode, how errors and answers look, and how its own
// upstream kind is served by pass-through.
import type { CRequest, CResponse } from '../core/canonical.ts'
import type { GatewayError } from '../core/errors.ts'
import type { GatewayProtocol } from '../core/gateway.ts'
import type { FrameTransform, StreamEncoder } from '../core/stream-encoder.ts'
import type { Usage } from '../core/usage.ts'
import type { Issue } from '../lib/validate.ts'

export interface CallContext {
  requestId: string
  /** The id clients see in the body (responses: equals requestId). */
  publicId: string
  slug: string
  /** epoch seconds */
  created: number
  serviceMode: string
}

export interface Inbound<Body> {
  name: 'chat' | 'messages' | 'responses'
  native: GatewayProtocol
  idPrefix: 'req' | 'resp'
  validate(raw: unknown): { ok: true; value: Body } | { ok: false; issues: Issue[] }
  invalid(issues: Issue[]): GatewayError
  /** Protocol rules beyond the schema (e.g. stateless responses). */
  check?(body: Body): void
  model(body: Body): string
  stream(body: Body): boolean
  estimateInput(body: Body): { promptChars: number; maxTokens: number | undefined; choices: number }
  decode(body: Body): CRequest
  renderError(err: GatewayError): { status: number; body: string }
  /** Headers forwarded to an upstream (e.g. anthropic-version). */
  passHeaders(req: Request): Record<string, string>
  encode(r: CResponse, ctx: CallContext): string
  passthroughJson(text: string, parsed: Record<string, any>, ctx: CallContext): string
  usageOf(parsed: Record<string, any>): Usage | undefined
  svc(
    costMicros: bigint,
    usageSource: 'upstream' | 'none',
    latencyMs: number,
    gateway: string,
    upstreamRequestId: string,
    ctx: CallContext,
  ): string
  streamEncoder(ctx: CallContext): StreamEncoder
  /** The same-protocol stream stage: frames pass through, usage is read on the side. */
  tee(ctx: CallContext): FrameTransform
}
