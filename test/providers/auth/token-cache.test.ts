// The per-gateway credential cache: one fetch for many concurrent callers, the value kept while
// fresh, a background refresh in the last fifth of its life (callers keep the old value
// meanwhile), a foreground fetch when too close to expiry, and a failure shared by its waiters.
import { describe, expect, test } from 'bun:test'
import { CredentialCache, type Expiring } from '../../../src/providers/auth/token-cache.ts'

function controlled() {
  let now = 1_000_000
  const pending: { resolve: (v: Expiring<string>) => void; reject: (e: Error) => void }[] = []
  let fetches = 0
  const cache = new CredentialCache<string>(
    () =>
      new Promise((resolve, reject) => {
        fetches++
        pending.push({ resolve, reject })
      }),
    () => now,
  )
  const answer = (value: string, lifeMs: number) => pending.shift()!.resolve({ value, expiresAt: now + lifeMs, fetchedAt: now })
  return {
    cache,
    answer,
    fail: (e: Error) => pending.shift()!.reject(e),
    fetches: () => fetches,
    at: (t: number) => (now = t),
    now: () => now,
    pending,
  }
}

describe('CredentialCache', () => {
  test('100 concurrent callers share one fetch and its value', async () => {
    const c = controlled()
    const all = Promise.all(Array.from({ length: 100 }, () => c.cache.get()))
    c.answer('t1', 3_600_000)
    expect(new Set(await all)).toEqual(new Set(['t1']))
    expect(c.fetches()).toBe(1)
    expect(await c.cache.get()).toBe('t1')
    expect(c.fetches()).toBe(1)
  })

  test('in the last fifth of its life: the old value is served while one background fetch runs', async () => {
    const c = controlled()
    const first = c.cache.get()
    c.answer('t1', 3_600_000)
    await first
    c.at(c.now() + 3_600_000 - 200_000) // 200 s left: inside the refresh window, well before the 30 s margin
    expect(await Promise.all([c.cache.get(), c.cache.get(), c.cache.get()])).toEqual(['t1', 't1', 't1'])
    expect(c.fetches()).toBe(2)
    c.answer('t2', 3_600_000)
    await Bun.sleep(0)
    expect(await c.cache.get()).toBe('t2')
    expect(c.fetches()).toBe(2)
  })

  test('past the safety margin the callers wait for the new value', async () => {
    const c = controlled()
    const first = c.cache.get()
    c.answer('t1', 3_600_000)
    await first
    c.at(c.now() + 3_600_000 - 5_000)
    const waiting = Promise.all([c.cache.get(), c.cache.get()])
    c.answer('t2', 3_600_000)
    expect(await waiting).toEqual(['t2', 't2'])
    expect(c.fetches()).toBe(2)
  })

  test('a failed fetch fails its waiters once; the next caller fetches again', async () => {
    const c = controlled()
    const waiting = Promise.allSettled([c.cache.get(), c.cache.get()])
    c.fail(new Error('refused'))
    expect((await waiting).map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(c.fetches()).toBe(1)
    const next = c.cache.get()
    c.answer('t1', 3_600_000)
    expect(await next).toBe('t1')
    expect(c.fetches()).toBe(2)
  })

  test('a value without expiry (static keys) is fetched once', async () => {
    let fetches = 0
    const cache = new CredentialCache(async () => ({ value: 'k', expiresAt: undefined, fetchedAt: 0, ...{ n: ++fetches } }))
    await cache.get()
    await cache.get()
    expect(fetches).toBe(1)
  })
})
