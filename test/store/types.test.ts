// The store's shared arithmetic: an account's shard (stable, spread) and the minute window.
import { describe, expect, test } from 'bun:test'
import { shardOf, WINDOW_MS, WINDOW_TTL_MS, windowOf } from '../../src/store/types.ts'

describe('shardOf', () => {
  test('the same user always lands on the same shard, within range', () => {
    for (const shards of [1, 4, 16]) {
      for (let i = 0; i < 50; i++) {
        const s = shardOf(`usr_${i}`, shards)
        expect(s).toBe(shardOf(`usr_${i}`, shards))
        expect(Number.isInteger(s) && s >= 0 && s < shards).toBe(true)
      }
    }
  })

  test('FNV-1a of the id: fixed values, so every instance and version agrees', () => {
    // FNV-1a 32-bit of "" is its offset basis 0x811c9dc5; of "a" is 0xe40c292c.
    expect(shardOf('', 2 ** 32)).toBe(0x811c9dc5)
    expect(shardOf('a', 2 ** 32)).toBe(0xe40c292c)
  })

  test('1 000 users spread over 16 shards, none left empty or holding a third', () => {
    const counts = Array(16).fill(0)
    for (let i = 0; i < 1_000; i++) counts[shardOf(`usr_${crypto.randomUUID()}`, 16)]++
    expect(Math.min(...counts)).toBeGreaterThan(0)
    expect(Math.max(...counts)).toBeLessThan(333)
  })
})

describe('windowOf', () => {
  test('the minute index and the time to its end', () => {
    expect(windowOf(0)).toEqual({ index: 0, resetMs: WINDOW_MS })
    expect(windowOf(WINDOW_MS - 1)).toEqual({ index: 0, resetMs: 1 })
    expect(windowOf(WINDOW_MS)).toEqual({ index: 1, resetMs: WINDOW_MS })
    expect(windowOf(125_000, 10_000)).toEqual({ index: 12, resetMs: 5_000 })
  })

  test('a window’s counter is kept a little longer than the window', () => {
    expect(WINDOW_TTL_MS).toBeGreaterThan(WINDOW_MS)
  })
})
