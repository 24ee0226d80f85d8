// When a fallback model answered (docs/failover.md "Model fallbacks"), every protocol's `svc`
// says so: `model` is the slug that answered (as the answer's own `model`), `requestedModel` the
// one asked for first. Otherwise the svc is left exactly as it was.
import type { CallContext } from '../spoke.ts'

export function withFallbackSvc(svc: string, ctx: CallContext): string {
  if (!ctx.requestedModel || !svc.endsWith('}')) return svc
  return `${svc.slice(0, -1)},"model":${JSON.stringify(ctx.slug)},"requestedModel":${JSON.stringify(ctx.requestedModel)}}`
}
