// What one /v1 call reports to metrics and traces, from the pipeline's few hook points:
// resolved → admission → upstream attempt(s) → first byte → settlement → end. Metric labels use
// the public model id only once the catalog resolved it ("unknown" before: a client's string
// is unbounded). GenAI semantic-convention attributes: docs/observability.md.
import { endedByCaller, endStatus, type Fault, type UpstreamAttempt } from '../core/call-end.ts'
import { GatewayError } from '../core/errors.ts'
import type { GatewayProtocol, Route } from '../core/gateway.ts'
import type { FrameTransform } from '../core/frames.ts'
import type { Usage } from '../core/usage.ts'
import type { Logger } from '../lib/log.ts'
import type { Metrics } from './telemetry.ts'
import { NOOP_SPAN, type Span, type Tracer } from './tracing.ts'

/** gen_ai.provider.name of an upstream gateway, by the protocol it speaks. */
const PROVIDER: Record<GatewayProtocol, string> = {
  'openai-chat': 'openai',
  'anthropic-messages': 'anthropic',
  'openai-responses': 'openai',
  // OpenTelemetry's gen_ai.provider.name values for the clouds.
  'bedrock-anthropic': 'aws.bedrock',
  'bedrock-converse': 'aws.bedrock',
  'vertex-anthropic': 'gcp.vertex_ai',
}

/** What one settlement settled, as billing/settlement.ts returns it (its `Settled`). */
export interface Settlement {
  usage: Usage
  costMicros: bigint
  gateway: string | null
  /** performance.now() when the store's round trip started. */
  tripStarted: number
  trip: Promise<{ outcome: 'applied' | 'expired' | 'rescued'; answeredAt: number }>
}

export type RefusalReason = 'rate_limit' | 'balance' | 'key_limit' | 'tpm' | 'concurrency'

export class CallObserver {
  readonly span: Span
  private model = 'unknown'
  private stream = 'false'
  private reserved = 0
  private firstByteSeen = false
  private ended = false
  /** Every upstream attempt of the call in order, as its request log keeps them. */
  readonly attempts: UpstreamAttempt[] = []
  /** gen_ai.operation.name: `embeddings` for POST /v1/embeddings, `chat` for the three chat protocols. */
  private readonly operation: 'chat' | 'embeddings'
  /**
   * Tracing is on: spans get their names and attributes. Off (the no-op tracer), none of them is
   * built — no attribute objects, span names or admission wrapper per call (docs/observability.md "Cost").
   */
  private readonly traced: boolean

  constructor(
    private readonly metrics: Metrics,
    tracer: Tracer,
    private readonly log: Logger,
    readonly protocol: string,
    headers: Headers,
    readonly requestId: string,
    private readonly t0: number,
  ) {
    this.operation = protocol === 'embeddings' ? 'embeddings' : 'chat'
    this.traced = tracer.enabled
    this.span = this.traced
      ? tracer.startCall(this.operation, headers, {
          'gen_ai.operation.name': this.operation,
          'tollgate.request_id': requestId,
          'tollgate.protocol': protocol,
        })
      : NOOP_SPAN
  }

  /** The catalog knows the model: from here on it labels the call. */
  resolved(modelId: string, provider: string, stream: boolean): void {
    this.model = modelId
    this.stream = stream ? 'true' : 'false'
    if (!this.traced) return
    this.span.rename(`${this.operation} ${modelId}`)
    this.span.setAttributes({
      'gen_ai.request.model': modelId,
      'gen_ai.provider.name': provider,
      'gen_ai.system': provider,
      'tollgate.stream': stream,
    })
  }

  /** Admission (rate window + reservation) in its own span, in error when refused. */
  admission<T>(admitted: Promise<T>): Promise<T> {
    if (!this.traced) return admitted
    const span = this.span.child('tollgate.admission')
    return admitted.then(
      (value) => {
        span.end()
        return value
      },
      (e: unknown) => {
        span.fail(e instanceof GatewayError ? e.code : 'INTERNAL')
        span.end()
        throw e
      },
    )
  }

  refused(reason: RefusalReason): void {
    this.metrics.m.refusals.inc({ protocol: this.protocol, reason })
  }

  reserve(micros: bigint): void {
    this.reserved = Number(micros)
    this.metrics.reservedMicros += this.reserved
  }

  /** A hot-store round trip that started at `t` (performance.now()). */
  storeTrip(op: 'admit', t: number, ok: boolean): void {
    this.metrics.m.store.observe({ op }, (performance.now() - t) / 1000)
    if (!ok) this.metrics.m.storeErrors.inc({ op })
  }

  /** One upstream attempt of the route serving public `model`: timed, counted per route, recorded, in its own client span. */
  async attempt<T>(route: Route, model: string, run: () => Promise<T>): Promise<T> {
    const gateway = route.gateway.id
    const span = this.traced
      ? this.span.child(
          `${this.operation} ${route.upstreamModel}`,
          {
            'gen_ai.operation.name': this.operation,
            'gen_ai.request.model': route.upstreamModel,
            'gen_ai.provider.name': PROVIDER[route.gateway.protocol],
            'tollgate.gateway': gateway,
          },
          'client',
        )
      : NOOP_SPAN
    const t = performance.now()
    const record = (outcome: string, e?: GatewayError) => {
      const ms = Math.round(performance.now() - t)
      const upstreamModel = route.upstreamModel
      const u = e?.extra.upstream
      // One object literal per shape: no spread of a conditional object per attempt.
      this.attempts.push(
        !u
          ? { gateway, model, upstreamModel, outcome, ms }
          : u.status === undefined
            ? { gateway, model, upstreamModel, outcome, failure: u.kind, ms }
            : { gateway, model, upstreamModel, outcome, status: u.status, failure: u.kind, ms },
      )
    }
    try {
      const value = await run()
      this.metrics.m.attempts.inc({ gateway, model, outcome: 'ok' })
      record('ok')
      return value
    } catch (e) {
      const err = e instanceof GatewayError ? e : undefined
      // The caller's end stopped the attempt (client gone, idle, a drain): its code, never an upstream failure.
      const byCaller = endedByCaller(e)
      const code = byCaller ? endStatus(e.end).errorCode! : (err?.code ?? 'UPSTREAM_ERROR')
      this.metrics.m.attempts.inc({ gateway, model, outcome: code })
      record(code, err)
      if (!byCaller) {
        this.metrics.m.failures.inc({ gateway, code, stage: 'attempt' })
        span.fail(code)
      }
      throw e
    } finally {
      this.metrics.m.attemptDuration.observe({ gateway }, (performance.now() - t) / 1000)
      span.end()
    }
  }

  streamFailed(gateway: string, code: string): void {
    this.metrics.m.failures.inc({ gateway, code, stage: 'stream' })
  }

  firstByte(): void {
    if (this.firstByteSeen) return
    this.firstByteSeen = true
    this.metrics.m.ttfb.observe({ protocol: this.protocol, stream: this.stream }, (performance.now() - this.t0) / 1000)
  }

  /** The stream's first frame with content is its first byte. */
  watchFirstFrame(t: FrameTransform): FrameTransform {
    // A stage's members are closures of their own (no `this`): all but push pass as they are.
    return {
      ...t,
      push: (ev) => {
        const out = t.push(ev)
        if (out.length > 0 && !this.firstByteSeen) this.firstByte()
        return out
      },
    }
  }

  /**
   * What settlement settled (billing/settlement.ts): usage and cost are counted, the reservation
   * leaves the gauge, and the store's round trip is timed in its own span (failed when the
   * record went through the settlement fallback).
   */
  settled(s: Settlement): void {
    const { usage, costMicros, gateway } = s
    const { m } = this.metrics
    this.metrics.reservedMicros -= this.reserved
    this.reserved = 0
    const model = this.model
    if (usage.inputTokens) m.tokens.inc({ model, kind: 'input' }, usage.inputTokens)
    if (usage.outputTokens) m.tokens.inc({ model, kind: 'output' }, usage.outputTokens)
    if (usage.cacheReadTokens) m.tokens.inc({ model, kind: 'cache_read' }, usage.cacheReadTokens)
    if (usage.cacheWriteTokens) m.tokens.inc({ model, kind: 'cache_write' }, usage.cacheWriteTokens)
    if (usage.reasoningTokens) m.tokens.inc({ model, kind: 'reasoning' }, usage.reasoningTokens)
    if (costMicros > 0n) m.cost.inc({ model }, Number(costMicros))
    if (this.traced)
      this.span.setAttributes({
        'gen_ai.response.model': model,
        'gen_ai.usage.input_tokens': usage.inputTokens,
        'gen_ai.usage.output_tokens': usage.outputTokens,
        'tollgate.cost_micros': Number(costMicros),
        'tollgate.gateway': gateway ?? undefined,
      })
    const span = this.traced ? this.span.child('tollgate.settlement') : NOOP_SPAN
    s.trip.then(({ outcome, answeredAt }) => {
      const ok = outcome !== 'rescued'
      this.metrics.m.store.observe({ op: 'settle' }, (answeredAt - s.tripStarted) / 1000)
      if (!ok) {
        this.metrics.m.storeErrors.inc({ op: 'settle' })
        m.settleFailures.inc()
        span.fail('SETTLE_FAILED')
      }
      span.end()
    })
  }

  /** The call is over (JSON answered, stream ended, or refused): counted exactly once. */
  end(status: number, errorCode: string | null, fault: Fault | null): void {
    if (this.ended) return
    this.ended = true
    const seconds = (performance.now() - this.t0) / 1000
    const code = errorCode ?? 'none'
    this.metrics.m.requests.inc({ protocol: this.protocol, model: this.model, status_class: `${Math.floor(status / 100)}xx`, code })
    if (fault) this.metrics.m.errors.inc({ protocol: this.protocol, model: this.model, fault })
    this.metrics.m.duration.observe({ protocol: this.protocol, stream: this.stream }, seconds)
    if (this.traced) {
      this.span.setAttributes({ 'http.response.status_code': status })
      if (errorCode) this.span.fail(errorCode)
      this.span.end()
    }
    this.log.debug('call finished', {
      requestId: this.requestId,
      protocol: this.protocol,
      model: this.model,
      status,
      code,
      ms: Math.round(seconds * 1000),
    })
  }
}
