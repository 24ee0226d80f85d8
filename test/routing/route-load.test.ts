// Upstream calls under way per route (src/routing/route-load.ts): counted per gateway and
// upstream model, never below zero, a route with none reads 0.
import { describe, expect, test } from 'bun:test'
import { RouteLoad } from '../../src/routing/route-load.ts'

const route = (gateway: string, upstreamModel: string) => ({ gateway: { id: gateway }, upstreamModel })

describe('RouteLoad', () => {
  test('counts each route apart and goes back to zero', () => {
    const load = new RouteLoad()
    load.started(route('gw-a', 'm1'))
    load.started(route('gw-a', 'm1'))
    load.started(route('gw-a', 'm2'))
    expect([load.inFlight('gw-a', 'm1'), load.inFlight('gw-a', 'm2'), load.inFlight('gw-b', 'm1')]).toEqual([2, 1, 0])
    load.ended(route('gw-a', 'm1'))
    load.ended(route('gw-a', 'm1'))
    load.ended(route('gw-a', 'm1'))
    expect(load.inFlight('gw-a', 'm1')).toBe(0)
  })
})
