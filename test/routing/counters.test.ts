// Failover counters: plain numbers from zero; the snapshot holds every counter and no listener.
import { expect, test } from 'bun:test'
import { FailoverCounters, type RoutingEvent } from '../../src/routing/counters.ts'

test('a fresh set is all zeros, and the snapshot holds numbers only', () => {
  const c = new FailoverCounters()
  const snap = c.snapshot()
  expect(Object.keys(snap).sort()).toEqual(
    [
      'attempts',
      'retries',
      'backingOff',
      'failovers',
      'breakerSkips',
      'limitSkips',
      'breakerOpened',
      'breakerClosed',
      'probes',
      'firstTokenTimeouts',
      'unreadableEvents',
    ].sort(),
  )
  expect(Object.values(snap).every((v) => v === 0)).toBe(true)
})

test('the snapshot is a copy of the counts at that moment', () => {
  const c = new FailoverCounters()
  c.attempts += 3
  c.failovers++
  const snap = c.snapshot()
  c.attempts++
  expect(snap.attempts).toBe(3)
  expect(snap.failovers).toBe(1)
  expect(c.snapshot().attempts).toBe(4)
})

test('the listener is a no-op until set, then hears what it is told', () => {
  const c = new FailoverCounters()
  expect(() => c.listener({ kind: 'retry', gateway: 'g' })).not.toThrow()
  const heard: RoutingEvent[] = []
  c.listener = (e) => heard.push(e)
  c.listener({ kind: 'breaker', gateway: 'g', state: 'open' })
  expect(heard).toEqual([{ kind: 'breaker', gateway: 'g', state: 'open' }])
  expect('listener' in c.snapshot()).toBe(false)
})
