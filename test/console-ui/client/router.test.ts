// Client-side routes: a path pattern with :params matches exactly (a trailing slash allowed),
// decodes its parameters, and the first registered route that matches wins.
import { describe, expect, test } from 'bun:test'
import { match, navigate, onNavigate, route } from '../../../src/console-ui/client/router.ts'

const pageA = () => {}
const pageB = () => {}
const pageC = () => {}
route('/console/rt-test/keys', pageA)
route('/console/rt-test/keys/:id', pageB, { public: true })
route('/console/rt-test/:section/:id', pageC)

describe('match', () => {
  test('a fixed path, with or without a trailing slash', () => {
    expect(match('/console/rt-test/keys')?.route.page).toBe(pageA)
    expect(match('/console/rt-test/keys/')?.route.page).toBe(pageA)
    expect(match('/console/rt-test/keys')?.params).toEqual({})
  })

  test('parameters are captured and decoded; public is kept', () => {
    const m = match('/console/rt-test/keys/key%2Fwith%20space')
    expect(m?.route.page).toBe(pageB)
    expect(m?.route.public).toBe(true)
    expect(m?.params).toEqual({ id: 'key/with space' })
  })

  test('the first route that matches wins; later ones take what it does not', () => {
    expect(match('/console/rt-test/keys/k1')?.route.page).toBe(pageB)
    expect(match('/console/rt-test/users/u1')).toMatchObject({ params: { section: 'users', id: 'u1' } })
    expect(match('/console/rt-test/users/u1')?.route.public).toBe(false)
  })

  test('no partial matches', () => {
    expect(match('/console/rt-test/keys/k1/more')).toBeUndefined()
    expect(match('/x/console/rt-test/keys')).toBeUndefined()
    expect(match('/console/rt-test')).toBeUndefined()
  })
})

describe('navigate', () => {
  test('pushes or replaces the history entry, then renders', () => {
    const calls: string[] = []
    const g = globalThis as unknown as { history?: unknown }
    const saved = g.history
    g.history = {
      pushState: (_: unknown, __: string, path: string) => calls.push(`push ${path}`),
      replaceState: (_: unknown, __: string, path: string) => calls.push(`replace ${path}`),
    }
    try {
      onNavigate(() => calls.push('render'))
      navigate('/console/keys')
      navigate('/console/logs?model=m', { replace: true })
      expect(calls).toEqual(['push /console/keys', 'render', 'replace /console/logs?model=m', 'render'])
    } finally {
      g.history = saved
      onNavigate(() => {})
    }
  })
})
