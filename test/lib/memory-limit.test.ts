import { describe, expect, test } from 'bun:test'
import { defaultSoftLimit, MemoryLimit } from '../../src/lib/memory-limit.ts'

const MB = 1024 * 1024

/** A process whose size and clock the test moves; a collection takes `gcMs` and leaves `after`. */
function fakeProcess(opts: { limitMb: number; gcMs: number; afterMb: number }) {
  const p = { rss: 0, t: 0, collected: [] as number[] }
  const limit = new MemoryLimit({
    limitBytes: opts.limitMb * MB,
    rss: () => p.rss,
    now: () => p.t,
    collect: () => {
      p.collected.push(p.t)
      p.t += opts.gcMs
      p.rss = opts.afterMb * MB
    },
  })
  return { p, limit }
}

describe('MemoryLimit', () => {
  test('does nothing under the limit', () => {
    const { p, limit } = fakeProcess({ limitMb: 256, gcMs: 40, afterMb: 150 })
    p.rss = 256 * MB
    expect(limit.check()).toBe(false)
    expect(p.collected).toEqual([])
  })

  test('collects once over the limit, then not before the collection has taken at most 10 % of the time', () => {
    const { p, limit } = fakeProcess({ limitMb: 256, gcMs: 40, afterMb: 150 })
    p.rss = 300 * MB
    expect(limit.check()).toBe(true)
    expect(p.collected.length).toBe(1)
    // It ended at t=40 and took 40 ms: the next may come at 40 + 40 / 0.1 = 440.
    p.rss = 400 * MB
    p.t = 439
    expect(limit.check()).toBe(false)
    p.t = 440
    expect(limit.check()).toBe(true)
    expect(p.collected).toEqual([0, 440])
  })

  test('a live set above the limit is collected again only after it has grown by an eighth of the limit', () => {
    const { p, limit } = fakeProcess({ limitMb: 256, gcMs: 10, afterMb: 300 })
    p.rss = 310 * MB
    expect(limit.check()).toBe(true)
    p.t = 10_000
    p.rss = 331 * MB // 300 + 32 not reached
    expect(limit.check()).toBe(false)
    p.rss = 333 * MB
    expect(limit.check()).toBe(true)
    expect(p.collected.length).toBe(2)
  })

  test('dropping under the limit forgets what the last collection left', () => {
    const { p, limit } = fakeProcess({ limitMb: 256, gcMs: 10, afterMb: 300 })
    p.rss = 310 * MB
    expect(limit.check()).toBe(true)
    p.t = 10_000
    p.rss = 200 * MB
    expect(limit.check()).toBe(false)
    p.rss = 260 * MB
    expect(limit.check()).toBe(true)
  })

  test('a collection that paused longer than 100 ms suspends the limit until the process is back under it', () => {
    const { p, limit } = fakeProcess({ limitMb: 256, gcMs: 300, afterMb: 250 })
    p.rss = 300 * MB
    expect(limit.check()).toBe(true)
    p.t = 1_000_000
    p.rss = 400 * MB // grown far past the limit and the regrowth: still suspended
    expect(limit.check()).toBe(false)
    p.rss = 250 * MB
    expect(limit.check()).toBe(false)
    p.rss = 300 * MB
    expect(limit.check()).toBe(true)
    expect(p.collected.length).toBe(2)
  })
})

describe('defaultSoftLimit', () => {
  const files = (entries: Record<string, string>) => (path: string) => entries[path]
  test('half the container limit, cgroup v2 first', () => {
    expect(defaultSoftLimit(files({ '/sys/fs/cgroup/memory.max': '536870912\n' }))).toBe(268_435_456)
    expect(defaultSoftLimit(files({ '/sys/fs/cgroup/memory/memory.limit_in_bytes': '1073741824' }))).toBe(536_870_912)
  })
  test('no limit, or no cgroup files: off', () => {
    expect(defaultSoftLimit(files({ '/sys/fs/cgroup/memory.max': 'max\n' }))).toBe(0)
    expect(defaultSoftLimit(files({ '/sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712' }))).toBe(0)
    expect(defaultSoftLimit(files({}))).toBe(0)
  })
})
