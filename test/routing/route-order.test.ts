import { describe, expect, test } from 'bun:test'
import type { Route } from '../../src/core/gateway.ts'
import { DEFAULT_POLICY } from '../../src/routing/policy.ts'
import { preferRoute, RouteRotation, tiers } from '../../src/routing/route-order.ts'

const route = (id: string, extra: Partial<Route> = {}): Route => ({
  gateway: { id, protocol: 'openai-chat', baseUrl: 'http://x', apiKey: undefined, timeoutMs: 1_000, enabled: true, policy: DEFAULT_POLICY },
  upstreamModel: 'm',
  ...extra,
})
const ids = (rs: Route[]) => rs.map((r) => r.gateway.id)

describe('tiers', () => {
  test('without priorities every route is its own tier, in catalog order', () => {
    expect(tiers([route('a'), route('b'), route('c')]).map(ids)).toEqual([['a'], ['b'], ['c']])
  })

  test('routes group by priority, lowest first, catalog order within', () => {
    const rs = [route('a', { priority: 2 }), route('b', { priority: 1 }), route('c', { priority: 2 }), route('d', { priority: 1 })]
    expect(tiers(rs).map(ids)).toEqual([
      ['b', 'd'],
      ['a', 'c'],
    ])
  })
})

describe('RouteRotation', () => {
  test('a catalog without priorities or weights is tried in catalog order on every call', () => {
    const rot = new RouteRotation()
    const rs = [route('a'), route('b'), route('c')]
    for (let i = 0; i < 5; i++) expect(ids(rot.order('m', rs))).toEqual(['a', 'b', 'c'])
  })

  test('weights 5:1:1 lead exactly 5, 1 and 1 times in every 7 calls, spread out, then the next priority', () => {
    const rot = new RouteRotation()
    const rs = [
      route('a', { priority: 0, weight: 5 }),
      route('b', { priority: 0 }),
      route('c', { priority: 0 }),
      route('z', { priority: 1 }),
    ]
    const orders = Array.from({ length: 7 }, () => ids(rot.order('m', rs)))
    expect(orders.map((o) => o[0]).join('')).toBe('aabacaa')
    for (const o of orders) {
      expect(o.at(-1)).toBe('z')
      expect(new Set(o).size).toBe(4)
    }
  })

  test('shares within ±3 points over 10,000 calls spread at random over 3 instances', () => {
    const instances = [new RouteRotation(), new RouteRotation(), new RouteRotation()]
    const rs = [route('a', { priority: 0, weight: 6 }), route('b', { priority: 0, weight: 3 }), route('c', { priority: 0, weight: 1 })]
    let seed = 42
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
    const led = new Map<string, number>()
    for (let i = 0; i < 10_000; i++) {
      const first = instances[Math.floor(random() * 3)]!.order('m', rs)[0]!.gateway.id
      led.set(first, (led.get(first) ?? 0) + 1)
    }
    for (const [id, share] of [
      ['a', 60],
      ['b', 30],
      ['c', 10],
    ] as const)
      expect(Math.abs((led.get(id) ?? 0) / 100 - share)).toBeLessThanOrEqual(3)
  })

  test('each model keeps its own rotation', () => {
    const rot = new RouteRotation()
    const rs = [route('a', { priority: 0 }), route('b', { priority: 0 })]
    expect(ids(rot.order('m1', rs))[0]).toBe('a')
    expect(ids(rot.order('m2', rs))[0]).toBe('a')
    expect(ids(rot.order('m1', rs))[0]).toBe('b')
  })
})

describe('preferRoute', () => {
  test('the remembered route moves first, the rest keep their order; an unknown or leading one changes nothing', () => {
    const rs = [route('a'), route('b'), route('c')]
    expect(ids(preferRoute(rs, 'c|m'))).toEqual(['c', 'a', 'b'])
    expect(preferRoute(rs, 'a|m')).toBe(rs)
    expect(preferRoute(rs, 'zz|m')).toBe(rs)
  })
})
