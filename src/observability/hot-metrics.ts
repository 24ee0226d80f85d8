// Counters and histograms cheap enough for every request (docs/observability.md "Cost"): a
// series is found through one Map level per label value and updated in place — no label
// validation, hashing or object copies per call, which made prom-client's own inc/observe cost
// 0.3–0.7 µs each. prom-client still owns the exposition: these objects register in its
// Registry and hand it, at scrape time, the same values its Counter and Histogram would (names,
// `le` buckets, _sum, _count).
import type client from 'prom-client'

type LabelValues<L extends string> = Partial<Record<L, string | number>>

/** What prom-client's Registry reads from a metric when it writes the exposition. */
interface ExportedValue {
  labels: Record<string, string | number>
  sharedLabels?: Record<string, string | number>
  value: number
  metricName?: string
  /** Always null here (no exemplars); prom-client's JSON form carries it on bucket lines. */
  exemplar?: null
}

abstract class HotMetric<L extends string, S> {
  readonly aggregator = 'sum'
  abstract readonly type: 'counter' | 'histogram'
  /** Series by label value, one Map level per label name (no key string is built per call). */
  private index = new Map<unknown, unknown>()
  private readonly series: S[] = []

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[],
    registers: client.Registry[],
  ) {
    for (const r of registers) r.registerMetric(this as unknown as client.Metric)
  }

  protected seriesOf(labels: LabelValues<L> | undefined): S {
    const names = this.labelNames
    if (names.length === 0) return this.series[0] ?? this.add({})
    let level = this.index
    for (let i = 0; i < names.length - 1; i++) {
      const value = labels?.[names[i]!]
      let next = level.get(value) as Map<unknown, unknown> | undefined
      if (next === undefined) level.set(value, (next = new Map()))
      level = next
    }
    const last = labels?.[names[names.length - 1]!]
    let s = level.get(last) as S | undefined
    if (s === undefined) {
      const own: Record<string, string | number> = {}
      // In the caller's order, as prom-client writes them.
      for (const [name, value] of Object.entries(labels ?? {})) if (value !== undefined) own[name] = value as string | number
      level.set(last, (s = this.add(own)))
    }
    return s
  }

  private add(labels: Record<string, string | number>): S {
    const s = this.create(labels)
    this.series.push(s)
    return s
  }

  protected abstract create(labels: Record<string, string | number>): S
  protected abstract exported(): ExportedValue[]

  /** As prom-client: a metric without labels shows its zero series before anything happened. */
  protected init(): void {
    if (this.labelNames.length === 0) this.seriesOf(undefined)
  }

  /** As prom-client: every series goes; a counter without labels keeps its zero series. */
  reset(): void {
    this.index = new Map()
    this.series.length = 0
    if (this.type === 'counter') this.init()
  }

  protected all(): readonly S[] {
    return this.series
  }

  async getForPromString() {
    return { name: this.name, help: this.help, type: this.type, values: this.exported(), aggregator: this.aggregator }
  }

  /** The JSON form (Registry#getMetricsAsJSON): shared labels merged into each value's labels. */
  async get() {
    const values = this.exported().map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } }))
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator }
  }
}

interface CounterSeries {
  labels: Record<string, string | number>
  value: number
}

export class HotCounter<L extends string> extends HotMetric<L, CounterSeries> {
  readonly type = 'counter'

  constructor(name: string, help: string, labelNames: readonly L[], registers: client.Registry[]) {
    super(name, help, labelNames, registers)
    this.init()
  }

  /** As prom-client: `inc()`, `inc(value)`, `inc(labels)` or `inc(labels, value)`. */
  inc(labels?: LabelValues<L> | number, value = 1): void {
    if (typeof labels === 'number') {
      this.inc(undefined, labels)
      return
    }
    if (!(value >= 0) || !Number.isFinite(value)) throw new Error(`${this.name}: a counter moves by a finite value ≥ 0 (got ${value})`)
    this.seriesOf(labels).value += value
  }

  protected create(labels: Record<string, string | number>): CounterSeries {
    return { labels, value: 0 }
  }

  protected exported(): ExportedValue[] {
    return Array.from(this.all(), (s) => ({ labels: s.labels, value: s.value }))
  }
}

interface HistogramSeries {
  labels: Record<string, string | number>
  /** Observations per bucket (not cumulative); those above the last bound are only in `count`. */
  counts: number[]
  sum: number
  count: number
}

export class HotHistogram<L extends string> extends HotMetric<L, HistogramSeries> {
  readonly type = 'histogram'
  private readonly bounds: readonly number[]

  constructor(name: string, help: string, labelNames: readonly L[], buckets: readonly number[], registers: client.Registry[]) {
    super(name, help, labelNames, registers)
    this.bounds = [...buckets].sort((a, b) => a - b)
    this.init()
  }

  /** As prom-client: `observe(value)` or `observe(labels, value)`. */
  observe(labels: LabelValues<L> | number, value?: number): void {
    if (typeof labels === 'number') {
      this.observe({}, labels)
      return
    }
    if (value === undefined || !Number.isFinite(value)) throw new TypeError(`${this.name}: value is not a valid number: ${value}`)
    const s = this.seriesOf(labels)
    const b = this.bounds
    let i = 0
    while (i < b.length && value > b[i]!) i++
    if (i < b.length) s.counts[i]!++
    s.sum += value
    s.count++
  }

  protected create(labels: Record<string, string | number>): HistogramSeries {
    return { labels, counts: this.bounds.map(() => 0), sum: 0, count: 0 }
  }

  protected exported(): ExportedValue[] {
    const bucket = `${this.name}_bucket`
    const out: ExportedValue[] = []
    for (const s of this.all()) {
      let cumulative = 0
      for (const [i, le] of this.bounds.entries()) {
        cumulative += s.counts[i]!
        out.push({ labels: { le }, sharedLabels: s.labels, value: cumulative, metricName: bucket, exemplar: null })
      }
      out.push(
        { labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: bucket, exemplar: null },
        { labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` },
      )
    }
    return out
  }
}
