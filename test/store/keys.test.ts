// Key layout: every key of one shard carries the same hash tag, so one Lua script touches one
// slot; counters have their own tag per bucket.
import { describe, expect, test } from 'bun:test'
import {
  accountKey,
  counterKey,
  inFlightKey,
  leaseDataKey,
  leasesKey,
  outboxKey,
  releasedKey,
  tokenWindowKey,
  windowKey,
} from '../../src/store/keys.ts'

const ks = { prefix: 'tg:', shards: 16 }
/** The hash tag Redis Cluster hashes: the text between the first { and the next }. */
const tagOf = (key: string) => {
  const open = key.indexOf('{')
  const close = key.indexOf('}', open + 1)
  return open === -1 || close === -1 ? key : key.slice(open + 1, close)
}

describe('key layout', () => {
  test('every per-account and per-shard key of shard 3 hashes on {s3}', () => {
    const keys = [
      accountKey(ks, 3, 'usr_a'),
      windowKey(ks, 3, 'key_a', 29_999_999),
      tokenWindowKey(ks, 3, 'key_a', 29_999_999),
      inFlightKey(ks, 3, 'key_a'),
      outboxKey(ks, 3),
      leasesKey(ks, 3),
      leaseDataKey(ks, 3),
      releasedKey(ks, 3),
    ]
    expect(keys.map(tagOf)).toEqual(Array(keys.length).fill('s3'))
    expect(new Set(keys).size).toBe(keys.length)
    for (const k of keys) expect(k.startsWith('tg:')).toBe(true)
  })

  test('names are exact (other instances and the Lua scripts read the same keys)', () => {
    expect(accountKey(ks, 0, 'usr_x')).toBe('tg:{s0}:acct:usr_x')
    expect(windowKey(ks, 1, 'key_y', 5)).toBe('tg:{s1}:rl:key_y:5')
    expect(tokenWindowKey(ks, 1, 'key_y', 5)).toBe('tg:{s1}:tpm:key_y:5')
    expect(outboxKey(ks, 15)).toBe('tg:{s15}:outbox')
    expect(counterKey(ks, 'api:10.0.0.1', 9)).toBe('tg:{c:api:10.0.0.1}:9')
  })

  test('windows of different minutes and keys differ; a counter bucket is its own slot', () => {
    expect(windowKey(ks, 2, 'k', 1)).not.toBe(windowKey(ks, 2, 'k', 2))
    expect(tokenWindowKey(ks, 2, 'k', 1)).not.toBe(windowKey(ks, 2, 'k', 1))
    expect(tagOf(counterKey(ks, 'login:ann', 1))).toBe('c:login:ann')
  })
})
