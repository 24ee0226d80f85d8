// A strict reader of the Prometheus text exposition format (0.0.4) for tests: every line must be
// a HELP/TYPE comment or a sample of a declared family, label values properly escaped, no series
// twice, and every histogram series consistent (cumulative buckets, +Inf bucket == _count). The
// published parser on npm (parse-prometheus-text-format) drops the labels of histograms, so
// this one is written here. NaN in any case is accepted, as Prometheus's own parser does
// (prom-client writes "Nan").
import { expect } from 'bun:test'

type Labels = Record<string, string>
type Kind = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped'
interface Sample {
  name: string
  labels: Labels
  value: number
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\n"])*)"(,|$)/y
const NUMBER = /^(?:[-+]?(?:\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|Inf)|[Nn][Aa][Nn])$/

function parseLabels(text: string, line: string): Labels {
  const labels: Labels = {}
  LABEL.lastIndex = 0
  while (LABEL.lastIndex < text.length) {
    const m = LABEL.exec(text)
    if (!m) throw new Error(`bad labels in ${JSON.stringify(line)}`)
    if (m[1]! in labels) throw new Error(`label ${m[1]} twice in ${JSON.stringify(line)}`)
    labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c))
  }
  return labels
}

const key = (name: string, labels: Labels) => name + JSON.stringify(Object.entries(labels).sort())

export class Exposition {
  readonly types = new Map<string, Kind>()
  readonly samples: Sample[] = []

  constructor(readonly text: string) {
    const seen = new Set<string>()
    for (const line of text.split('\n')) {
      if (line === '') continue
      if (line.startsWith('#')) {
        const [, word, name, rest] = line.match(/^# (HELP|TYPE) (\S+) ?(.*)$/) ?? []
        if (!word || !NAME.test(name!)) throw new Error(`bad comment ${JSON.stringify(line)}`)
        if (word === 'TYPE') {
          if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest!) || this.types.has(name!))
            throw new Error(`bad TYPE ${JSON.stringify(line)}`)
          this.types.set(name!, rest as Kind)
        }
        continue
      }
      const m = line.match(SAMPLE)
      if (!m || !NUMBER.test(m[3]!)) throw new Error(`not a sample: ${JSON.stringify(line)}`)
      const sample = {
        name: m[1]!,
        labels: m[2] ? parseLabels(m[2], line) : {},
        value: Number(m[3]!.replace(/^\+?Inf$/, 'Infinity').replace(/^-Inf$/, '-Infinity')),
      }
      if (!this.familyOf(sample.name)) throw new Error(`sample of an undeclared family: ${JSON.stringify(line)}`)
      if (seen.has(key(sample.name, sample.labels))) throw new Error(`series twice: ${JSON.stringify(line)}`)
      seen.add(key(sample.name, sample.labels))
      this.samples.push(sample)
    }
    for (const [name, kind] of this.types) if (kind === 'histogram') this.checkHistogram(name)
  }

  private familyOf(sample: string): string | undefined {
    if (this.types.has(sample)) return sample
    const base = sample.replace(/_(bucket|sum|count)$/, '')
    return base !== sample && ['histogram', 'summary'].includes(this.types.get(base) ?? '') ? base : undefined
  }

  private checkHistogram(name: string): void {
    for (const c of this.samples.filter((s) => s.name === `${name}_count`)) {
      const buckets = this.samples.filter(
        (s) => s.name === `${name}_bucket` && key('', { ...s.labels, le: '' }) === key('', { ...c.labels, le: '' }),
      )
      const values = buckets
        .sort((a, b) => Number(a.labels.le!.replace('+Inf', 'Infinity')) - Number(b.labels.le!.replace('+Inf', 'Infinity')))
        .map((b) => b.value)
      for (let i = 1; i < values.length; i++) if (values[i]! < values[i - 1]!) throw new Error(`${name}: buckets not cumulative`)
      if (buckets.at(-1)?.labels.le !== '+Inf' || values.at(-1) !== c.value) throw new Error(`${name}: +Inf bucket differs from _count`)
    }
  }

  kind(name: string): Kind {
    const k = this.types.get(name)
    if (!k) throw new Error(`no metric family ${name}`)
    return k
  }

  /** Sum of a counter's or gauge's samples whose labels include `labels` (0 when none match). */
  value(name: string, labels: Labels = {}): number {
    expect(['counter', 'gauge']).toContain(this.kind(name))
    return this.sum(name, labels)
  }

  /** Sum of the observation counts of a histogram's series whose labels include `labels`. */
  count(name: string, labels: Labels = {}): number {
    expect(this.kind(name)).toBe('histogram')
    return this.sum(`${name}_count`, labels)
  }

  /** The distinct values a label takes in a family (to check that label sets stay bounded). */
  labelValues(name: string, label: string): string[] {
    const names = new Set([name, `${name}_bucket`, `${name}_sum`, `${name}_count`])
    return [...new Set(this.samples.filter((s) => names.has(s.name) && label in s.labels).map((s) => s.labels[label]!))].sort()
  }

  private sum(sampleName: string, labels: Labels): number {
    return this.samples
      .filter((s) => s.name === sampleName && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((a, s) => a + s.value, 0)
  }
}

/** How much a counter or a histogram's count moved between two scrapes. */
export const delta = (before: Exposition, after: Exposition, name: string, labels: Labels = {}) =>
  after.kind(name) === 'histogram'
    ? after.count(name, labels) - before.count(name, labels)
    : after.value(name, labels) - before.value(name, labels)
