// The router joins what failover needs: its clock reaches the breakers and sticky routes; stop
// closes the route limits and the board.
import { expect, test } from 'bun:test'
import { silentLogger } from '../../src/lib/log.ts'
import { Router } from '../../src/routing/router.ts'
import { createMemoryBoard } from '../../src/store/breaker-board.ts'
import { createMemoryRouteLimits } from '../../src/store/route-limits.ts'

test('its own counters, breakers, cooling, rotation and load, one set per router', () => {
  const a = new Router(createMemoryBoard(), silentLogger)
  const b = new Router(createMemoryBoard(), silentLogger)
  a.counters.attempts++
  expect(b.counters.attempts).toBe(0)
  expect(a.breakers).not.toBe(b.breakers)
  expect(a.cooling).not.toBe(b.cooling)
  expect(a.load).not.toBe(b.load)
})

test('the default sticky routes follow the router’s clock', async () => {
  let now = 1_000
  const r = new Router(createMemoryBoard(), silentLogger, () => now)
  await r.sticky.set('p', 'gw|m', 500)
  expect(await r.sticky.get('p')).toBe('gw|m')
  now = 1_500
  expect(await r.sticky.get('p')).toBeUndefined()
})

test('the default sleep waits; a given one is used as is', async () => {
  const slept: number[] = []
  const r = new Router(createMemoryBoard(), silentLogger, Date.now, async (ms) => void slept.push(ms))
  await r.sleep(1234)
  expect(slept).toEqual([1234])
  const real = new Router(createMemoryBoard(), silentLogger)
  const t0 = performance.now()
  await real.sleep(20)
  expect(performance.now() - t0).toBeGreaterThanOrEqual(15)
})

test('start reads the board; stop closes the limits and the board', async () => {
  const board = createMemoryBoard()
  let limitsClosed = false
  const limits = { ...createMemoryRouteLimits(), close: async () => void (limitsClosed = true) }
  const r = new Router(board, silentLogger, Date.now, undefined, limits)
  await r.start(60_000)
  const heard: string[] = []
  board.subscribe((k) => heard.push(k))
  await r.stop()
  expect(limitsClosed).toBe(true)
  // the board was closed: its listeners are gone
  await board.publish('k', { phase: 'closed' })
  await Bun.sleep(5)
  expect(heard).toEqual([])
})
