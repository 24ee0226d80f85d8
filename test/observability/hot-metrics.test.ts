// The per-request counters and histograms write exactly what prom-client's own would.
import { describe, expect, test } from 'bun:test'
import client from 'prom-client'
import { HotCounter, HotHistogram } from '../../src/observability/hot-metrics.ts'

const BUCKETS = [0.01, 0.1, 1, 10]

function pair() {
  const ours = new client.Registry()
  const theirs = new client.Registry()
  const labels = ['protocol', 'model'] as const
  return {
    ours,
    theirs,
    counters: [
      new HotCounter('calls_total', 'Calls.', labels, [ours]),
      new client.Counter({ name: 'calls_total', help: 'Calls.', labelNames: labels, registers: [theirs] }),
    ] as const,
    plain: [
      new HotCounter('plain_total', 'No labels.', [], [ours]),
      new client.Counter({ name: 'plain_total', help: 'No labels.', labelNames: [], registers: [theirs] }),
    ] as const,
    histograms: [
      new HotHistogram('latency_seconds', 'Latency.', labels, BUCKETS, [ours]),
      new client.Histogram({ name: 'latency_seconds', help: 'Latency.', labelNames: labels, buckets: BUCKETS, registers: [theirs] }),
    ] as const,
    sizes: [
      new HotHistogram('size', 'No labels.', [], BUCKETS, [ours]),
      new client.Histogram({ name: 'size', help: 'No labels.', labelNames: [], buckets: BUCKETS, registers: [theirs] }),
    ] as const,
  }
}

describe('hot metrics', () => {
  test('the exposition equals prom-client’s for the same increments and observations', async () => {
    const p = pair()
    expect(await p.ours.metrics()).toBe(await p.theirs.metrics())
    for (const c of p.counters) {
      c.inc({ protocol: 'chat', model: 'acme/a' })
      c.inc({ protocol: 'chat', model: 'acme/a' }, 4)
      c.inc({ protocol: 'messages', model: 'say "hi"\\\n' }, 2.5)
    }
    for (const c of p.plain) {
      c.inc()
      c.inc(7)
    }
    for (const h of p.histograms) {
      for (const v of [0, 0.01, 0.011, 0.5, 1, 9.99, 10, 10.01, 1e6]) h.observe({ model: 'acme/a', protocol: 'chat' }, v)
      h.observe({ protocol: 'responses', model: 'acme/b' }, 0.2)
    }
    for (const h of p.sizes) {
      h.observe(3)
      h.observe(500)
    }
    const text = await p.ours.metrics()
    expect(text).toBe(await p.theirs.metrics())
    expect(text).toContain('calls_total{protocol="chat",model="acme/a"} 5')
    expect(text).toContain('latency_seconds_bucket{le="0.01",model="acme/a",protocol="chat"} 2')
    expect(text).toContain('latency_seconds_bucket{le="+Inf",model="acme/a",protocol="chat"} 9')
    expect(await p.ours.getMetricsAsJSON()).toEqual(await p.theirs.getMetricsAsJSON())
  })

  test('reset empties labelled series and zeroes unlabelled ones, as prom-client does', async () => {
    const p = pair()
    for (const c of p.counters) c.inc({ protocol: 'chat', model: 'm' })
    for (const c of p.plain) c.inc(2)
    for (const h of p.sizes) h.observe(1)
    p.ours.resetMetrics()
    p.theirs.resetMetrics()
    expect(await p.ours.metrics()).toBe(await p.theirs.metrics())
  })

  test('a negative or non-finite value is refused, as prom-client refuses it', () => {
    const { counters, histograms } = pair()
    expect(() => counters[0].inc({ protocol: 'chat' }, -1)).toThrow()
    expect(() => counters[1].inc({ protocol: 'chat' }, -1)).toThrow()
    expect(() => histograms[0].observe({ protocol: 'chat' }, Number.NaN)).toThrow()
    expect(() => histograms[1].observe({ protocol: 'chat' }, Number.NaN)).toThrow()
  })
})
