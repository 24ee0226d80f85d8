// Tracing as the pipeline sees it: a call span with child spans (admission, each upstream
// attempt, settlement). Off (no OTEL_EXPORTER_OTLP_ENDPOINT) it is the no-op below and the
// OpenTelemetry SDK is never loaded; on, otel.ts is imported once at start (docs/observability.md).
import type { Logger } from '../lib/log.ts'

export type Attributes = Record<string, string | number | boolean | undefined>

export interface Span {
  rename(name: string): void
  setAttributes(attrs: Attributes): void
  child(name: string, attrs?: Attributes, kind?: 'internal' | 'client'): Span
  /** Marks the span failed with a bounded error type (a GatewayError code). */
  fail(errorType: string): void
  end(): void
}

export interface Tracer {
  readonly enabled: boolean
  /** The span of one call; `traceparent` in `headers` makes it a child of the caller's span. */
  startCall(name: string, headers: Headers, attrs: Attributes): Span
  /** Export what is buffered now. */
  flush(): Promise<void>
  /** Export what is buffered and stop. */
  shutdown(): Promise<void>
}

export const NOOP_SPAN: Span = {
  rename() {},
  setAttributes() {},
  child: () => NOOP_SPAN,
  fail() {},
  end() {},
}

export const noopTracer: Tracer = {
  enabled: false,
  startCall: () => NOOP_SPAN,
  flush: async () => {},
  shutdown: async () => {},
}

export interface TracingConfig {
  otlpEndpoint: string | undefined
  serviceName: string
}

export async function createTracer(config: TracingConfig, log: Logger): Promise<Tracer> {
  if (!config.otlpEndpoint) return noopTracer
  const { otelTracer } = await import('./otel.ts')
  return otelTracer(config.otlpEndpoint, config.serviceName, log)
}
