// The `svc` extension on responses answers: cost in display credits (protocols/common/credit-svc.ts).
import { type CreditDisplay, creditSvc } from '../common/credit-svc.ts'
import type { SvcFacts } from '../spoke.ts'

export const responsesSvc = (display: CreditDisplay, f: SvcFacts): string =>
  creditSvc(display, f.costMicros, f.ctx.serviceMode, f.latencyMs)
