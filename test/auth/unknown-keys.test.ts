// The cache of unknown keys (docs/security.md "Limits"): a miss is remembered for its TTL, a TTL
// of 0 remembers nothing, the cache is bounded, and clear() forgets every miss.
import { describe, expect, test } from 'bun:test'
import { UnknownKeys } from '../../src/auth/unknown-keys.ts'

describe('UnknownKeys', () => {
  test('a miss is remembered until its TTL has passed', () => {
    let now = 1_000
    const misses = new UnknownKeys(5_000, 10, () => now)
    expect(misses.has('h1')).toBe(false)
    misses.add('h1')
    expect(misses.has('h1')).toBe(true)
    expect(misses.has('h2')).toBe(false)
    now += 4_999
    expect(misses.has('h1')).toBe(true)
    now += 1
    expect(misses.has('h1')).toBe(false)
  })

  test('with a TTL of 0 nothing is remembered (every guess asks Postgres)', () => {
    const misses = new UnknownKeys(0, 10, () => 0)
    misses.add('h1')
    expect(misses.has('h1')).toBe(false)
  })

  test('bounded: past `size` misses the oldest is forgotten first', () => {
    const misses = new UnknownKeys(60_000, 3, () => 0)
    for (const h of ['a', 'b', 'c', 'd']) misses.add(h)
    expect(['a', 'b', 'c', 'd'].map((h) => misses.has(h))).toEqual([false, true, true, true])
  })

  test('clear() forgets every miss (a re-enabled user’s keys are valid again at once)', () => {
    const misses = new UnknownKeys(60_000, 10, () => 0)
    misses.add('a')
    misses.add('b')
    misses.clear()
    expect(misses.has('a')).toBe(false)
    expect(misses.has('b')).toBe(false)
    misses.add('c')
    expect(misses.has('c')).toBe(true)
  })
})
