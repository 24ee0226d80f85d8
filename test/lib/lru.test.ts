// TtlLru: bounded by count (oldest write evicted first) and by age (an expired entry is a miss
// for get, still visible to peek as stale).
import { describe, expect, test } from 'bun:test'
import { TtlLru } from '../../src/lib/lru.ts'

const clock = () => {
  const c = { now: 1_000, fn: () => c.now }
  return c
}

describe('TtlLru', () => {
  test('get returns a fresh entry and misses after its ttl', () => {
    const c = clock()
    const lru = new TtlLru<string, number>(10, c.fn)
    lru.set('a', 1, 100)
    c.now += 99
    expect(lru.get('a')).toBe(1)
    c.now += 1
    expect(lru.get('a')).toBeUndefined()
    // get dropped it: peek sees nothing any more
    expect(lru.peek('a')).toBeUndefined()
  })

  test('peek shows an expired entry as stale without dropping it', () => {
    const c = clock()
    const lru = new TtlLru<string, string>(10, c.fn)
    lru.set('k', 'v', 50)
    expect(lru.peek('k')).toEqual({ value: 'v', fresh: true })
    c.now += 60
    expect(lru.peek('k')).toEqual({ value: 'v', fresh: false })
    expect(lru.peek('k')).toEqual({ value: 'v', fresh: false })
  })

  test('past max, the entry written longest ago is evicted; rewriting a key makes it newest', () => {
    const c = clock()
    const lru = new TtlLru<string, number>(2, c.fn)
    lru.set('a', 1, 1_000)
    lru.set('b', 2, 1_000)
    lru.set('a', 10, 1_000) // a is now newer than b
    lru.set('c', 3, 1_000)
    expect(lru.get('b')).toBeUndefined()
    expect(lru.get('a')).toBe(10)
    expect(lru.get('c')).toBe(3)
  })

  test('delete and deleteWhere remove exactly the chosen entries', () => {
    const lru = new TtlLru<string, { user: string }>(10)
    lru.set('k1', { user: 'u1' }, 60_000)
    lru.set('k2', { user: 'u2' }, 60_000)
    lru.set('k3', { user: 'u1' }, 60_000)
    lru.deleteWhere((v) => v.user === 'u1')
    expect([lru.get('k1'), lru.get('k2'), lru.get('k3')]).toEqual([undefined, { user: 'u2' }, undefined])
    lru.delete('k2')
    expect(lru.get('k2')).toBeUndefined()
  })
})
