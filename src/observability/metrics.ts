// Every Prometheus metric Tollgate exports, in one place (docs/observability.md lists them with
// their meaning). One Registry per runtime, so two instances in one process (tests) never mix.
// Labels are bounded: protocol, public model id (catalog), gateway id (catalog), status class,
// error code (GatewayError codes), token kind, store operation — never a user, key or request id.
// Values that exist anyway (open streams, reservations, outbox) are read at scrape time.
import client from 'prom-client'
import { HotCounter, HotHistogram } from './hot-metrics.ts'

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]
const STORE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]
const BATCH_BUCKETS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000]

export function defineMetrics(registry: client.Registry) {
  const r = [registry]
  // Counters and histograms move on every request: the cheap kind (hot-metrics.ts).
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new HotCounter<L>(name, help, labelNames, r)
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
    new HotHistogram<L>(name, help, labelNames, buckets, r)
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new client.Gauge<L>({ name, help, labelNames, registers: r })
  return {
    // Calls on /v1 (chat, messages, responses), counted once when the call ends.
    requests: counter(
      'tollgate_requests_total',
      'Inference calls by protocol, public model, status class and error code (code="none" on success).',
      ['protocol', 'model', 'status_class', 'code'] as const,
    ),
    // Errors by whose failure ended the call (core/call-end.ts faultOf), never by status.
    errors: counter(
      'tollgate_errors_total',
      "Inference calls that ended in a failure, by protocol, public model and fault (upstream or tollgate); a client's refusal is none.",
      ['protocol', 'model', 'fault'] as const,
    ),
    duration: histogram(
      'tollgate_request_duration_seconds',
      'Inference call duration, receipt to last byte (streams: to the end of the stream).',
      ['protocol', 'stream'] as const,
      LATENCY_BUCKETS,
    ),
    ttfb: histogram(
      'tollgate_time_to_first_byte_seconds',
      'Receipt to the first body byte (JSON: the answer; streams: the first frame carrying content).',
      ['protocol', 'stream'] as const,
      LATENCY_BUCKETS,
    ),
    refusals: counter(
      'tollgate_refusals_total',
      'Calls refused at admission: reason is rate_limit, tpm, concurrency, balance or key_limit.',
      ['protocol', 'reason'] as const,
    ),
    openStreams: gauge('tollgate_open_streams', 'Event streams open to clients on this instance.'),
    // Upstream gateways.
    attempts: counter(
      'tollgate_upstream_attempts_total',
      'Upstream attempts by gateway, public model (the route) and outcome ("ok" or the error code), before the first byte.',
      ['gateway', 'model', 'outcome'] as const,
    ),
    attemptDuration: histogram(
      'tollgate_upstream_attempt_duration_seconds',
      'Upstream attempt duration until its answer (JSON) or its response headers (streams).',
      ['gateway'] as const,
      LATENCY_BUCKETS,
    ),
    failovers: counter(
      'tollgate_upstream_failovers_total',
      'Calls moved on from this gateway to the next route after a retryable failure.',
      ['gateway'] as const,
    ),
    failures: counter(
      'tollgate_upstream_failures_total',
      'Upstream failures by gateway, error code and stage (attempt: before the first byte; stream: mid-stream).',
      ['gateway', 'code', 'stage'] as const,
    ),
    retries: counter('tollgate_upstream_retries_total', 'Same-gateway retries (routing retry policy).', ['gateway'] as const),
    breakerTransitions: counter(
      'tollgate_upstream_breaker_transitions_total',
      'Circuit-breaker state changes by gateway and new state (closed, open, half_open).',
      ['gateway', 'state'] as const,
    ),
    // Billing.
    tokens: counter(
      'tollgate_tokens_total',
      'Billed tokens by public model and kind (input, output, cache_read, cache_write, reasoning).',
      ['model', 'kind'] as const,
    ),
    cost: counter('tollgate_cost_micros_total', 'Billed cost in micro-USD by public model.', ['model'] as const),
    reserved: gauge('tollgate_reserved_micros', 'Credit (micro-USD) reserved by calls in flight on this instance and not yet settled.'),
    settleFailures: counter(
      'tollgate_settle_failures_total',
      'Settlements the store did not accept (money not moved in the hot store; see logs).',
      [],
    ),
    // Hot store (Redis or in-process) and Postgres.
    store: histogram(
      'tollgate_store_roundtrip_seconds',
      'Hot-store round trip by operation (admit, settle).',
      ['op'] as const,
      STORE_BUCKETS,
    ),
    storeErrors: counter('tollgate_store_errors_total', 'Hot-store operations that failed, by operation.', ['op'] as const),
    storeUp: gauge('tollgate_store_up', '1 when the hot store answered a ping at scrape time, else 0.'),
    redisAof: gauge(
      'tollgate_redis_aof_enabled',
      '1 when every Redis server keeps an append-only file (appendonly yes), 0 when one does not or will not say; absent on the in-process store.',
    ),
    databaseUp: gauge('tollgate_database_up', '1 when Postgres answered `select 1` at scrape time, else 0.'),
    // Outbox and ledger writer.
    outboxDepth: gauge(
      'tollgate_outbox_depth',
      'Settlement records in the outbox not yet written to Postgres (all instances, shared store).',
    ),
    ledgerLag: gauge('tollgate_ledger_lag_seconds', 'Age of the oldest record still in the outbox (0 when empty).'),
    writerBatch: histogram('tollgate_ledger_writer_batch_records', 'Records per ledger-writer batch.', [], BATCH_BUCKETS),
    writerBatchSeconds: histogram(
      'tollgate_ledger_writer_batch_seconds',
      'Time to write one batch to Postgres and acknowledge it.',
      [],
      STORE_BUCKETS,
    ),
    writerRecords: counter('tollgate_ledger_writer_records_total', 'Outbox records written to Postgres.', []),
    writerFailures: counter('tollgate_ledger_writer_failures_total', 'Ledger-writer batches that failed (retried later).', []),
    deadLetters: counter(
      'tollgate_ledger_writer_dead_letters_total',
      'Outbox records set aside instead of written, by reason (unreadable, rejected).',
      ['reason'] as const,
    ),
    memoryCollections: counter(
      'tollgate_memory_limit_collections_total',
      'Full garbage collections run because the process was over its soft memory limit (MEMORY_SOFT_LIMIT_MB).',
      [],
    ),
  }
}

export type MetricSet = ReturnType<typeof defineMetrics>
