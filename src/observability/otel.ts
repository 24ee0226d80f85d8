// The OpenTelemetry implementation of tracing.ts, imported only when OTEL_EXPORTER_OTLP_ENDPOINT
// is set. Spans are batched and sent as OTLP/HTTP JSON to <endpoint>/v1/traces (the OTLP
// convention for the generic endpoint variable). Parents are passed explicitly (no global
// context manager): the caller's W3C `traceparent` for the call span, the call span for its
// children.
import {
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  diag,
  trace,
  type Context,
  type Span as OtelSpan,
  type Tracer as OtelTracer,
} from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'
import type { Logger } from '../lib/log.ts'
import type { Attributes, Span, Tracer } from './tracing.ts'

const propagator = new W3CTraceContextPropagator()
const headerGetter = {
  get: (h: Headers, key: string) => h.get(key) ?? undefined,
  keys: (h: Headers) => [...h.keys()],
}

function clean(attrs: Attributes | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {}
  if (attrs) for (const [k, v] of Object.entries(attrs)) if (v !== undefined) out[k] = v
  return out
}

function wrap(tracer: OtelTracer, span: OtelSpan): Span {
  const ctx: Context = trace.setSpan(ROOT_CONTEXT, span)
  return {
    rename: (name) => void span.updateName(name),
    setAttributes: (attrs) => void span.setAttributes(clean(attrs)),
    child: (name, attrs, kind) =>
      wrap(
        tracer,
        tracer.startSpan(name, { kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes: clean(attrs) }, ctx),
      ),
    fail(errorType) {
      span.setAttribute('error.type', errorType)
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorType })
    },
    end: () => span.end(),
  }
}

export function otelTracer(endpoint: string, serviceName: string, log: Logger): Tracer {
  // The SDK reports export failures through its diagnostic logger, silent by default.
  const warn = (msg: string, ...args: unknown[]) =>
    log.warn('tracing: export or SDK problem', { detail: [msg, ...args].map(String).join(' ').slice(0, 500) })
  diag.setLogger({ error: warn, warn, info() {}, debug() {}, verbose() {} }, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true })
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` })
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 1_000 })],
  })
  const tracer = provider.getTracer('tollgate')
  return {
    enabled: true,
    startCall(name, headers, attrs) {
      const parent = headers.has('traceparent') ? propagator.extract(ROOT_CONTEXT, headers, headerGetter) : ROOT_CONTEXT
      return wrap(tracer, tracer.startSpan(name, { kind: SpanKind.SERVER, attributes: clean(attrs) }, parent))
    },
    // An unreachable collector must not fail the caller (e.g. graceful shutdown): log it.
    async flush() {
      await provider.forceFlush().catch((e) => log.warn('tracing: export failed', { err: String(e) }))
    },
    async shutdown() {
      await provider.shutdown().catch((e) => log.warn('tracing: export failed', { err: String(e) }))
    },
  }
}
