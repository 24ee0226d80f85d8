// The failover loop (src/routing/failover.ts) without HTTP: scripted attempt outcomes, a recorded
// sleep instead of real waits, and the log lines and counters an operator reads afterwards.
import { describe, expect, test } from 'bun:test'
import { CallEnded, type EndCause } from '../../src/core/call-end.ts'
import { GatewayError, type UpstreamFailure } from '../../src/core/errors.ts'
import type { Route } from '../../src/core/gateway.ts'
import type { Logger } from '../../src/lib/log.ts'
import { type CallView, withFailover } from '../../src/routing/failover.ts'
import { resolvePolicy, type PolicyFile } from '../../src/routing/policy.ts'
import { Router } from '../../src/routing/router.ts'
import { createMemoryBoard } from '../../src/store/breaker-board.ts'

const route = (id: string, policy: PolicyFile): Route => ({
  gateway: {
    id,
    protocol: 'openai-chat',
    baseUrl: 'http://x',
    apiKey: undefined,
    timeoutMs: 1_000,
    enabled: true,
    policy: resolvePolicy(policy),
  },
  upstreamModel: `m-${id}`,
})
const fail = (upstream: UpstreamFailure) =>
  new GatewayError(upstream.kind === 'timeout' ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR', 'x', { retryable: true, upstream })

/** A router whose sleeps are recorded (and take no time) and whose log lines are kept. */
function harness() {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = []
  const log = Object.fromEntries(
    ['debug', 'info', 'warn', 'error'].map((level) => [level, (msg: string, fields = {}) => void lines.push({ level, msg, fields })]),
  ) as unknown as Logger
  const slept: number[] = []
  const router = new Router(createMemoryBoard(), log, Date.now, async (ms) => void slept.push(ms))
  return { router, lines, slept, msgs: () => lines.map((l) => l.msg) }
}

/** An attempt function playing `script[gateway]` in order; `undefined` = an answer. */
function scripted(script: Record<string, (GatewayError | undefined)[]>) {
  const calls: string[] = []
  const attempt = async (r: Route) => {
    calls.push(r.gateway.id)
    const outcome = script[r.gateway.id]!.shift()
    if (outcome) throw outcome
    return `answer from ${r.gateway.id}`
  }
  return { calls, attempt }
}

describe('failover loop', () => {
  test('retries with Retry-After, then backoff, then the next route; every step logged and counted', async () => {
    const h = harness()
    const a = route('a', { retries: 2, backoffMs: 100, breaker: { enabled: false } })
    const b = route('b', { breaker: { enabled: false } })
    const s = scripted({
      a: [fail({ kind: 'status', status: 429, retryAfterMs: 700 }), fail({ kind: 'status', status: 503 }), fail({ kind: 'connect' })],
      b: [undefined],
    })
    const served = await withFailover(h.router, [a, b], s.attempt, 'req_1')
    expect(served).toEqual({ value: 'answer from b', route: b })
    expect(s.calls).toEqual(['a', 'a', 'a', 'b'])
    expect(h.slept[0]).toBe(700)
    expect(h.slept[1]).toBeGreaterThanOrEqual(100) // retry 1: between 100 and 200
    expect(h.slept[1]).toBeLessThanOrEqual(200)
    expect(h.msgs()).toEqual([
      'upstream attempt failed',
      'retrying route',
      'upstream attempt failed',
      'retrying route',
      'upstream attempt failed',
      'leaving route',
      'failing over',
    ])
    expect(h.lines[0]!.fields).toMatchObject({
      requestId: 'req_1',
      gateway: 'a',
      attempt: 1,
      upstream: { kind: 'status', status: 429, retryAfterMs: 700 },
    })
    expect(h.lines[5]!.fields).toMatchObject({ gateway: 'a', reason: 'retries exhausted' })
    expect(h.router.counters.snapshot()).toMatchObject({ attempts: 4, retries: 2, failovers: 1 })
  })

  test('a non-retryable failure ends the call at once, on any attempt', async () => {
    const h = harness()
    const refused = new GatewayError('UPSTREAM_REJECTED', 'x', { upstream: { kind: 'status', status: 400 } })
    const s = scripted({ a: [fail({ kind: 'status', status: 500 }), refused], b: [undefined] })
    const a = route('a', { retries: 3, breaker: { enabled: false } })
    await expect(withFailover(h.router, [a, route('b', {})], s.attempt, 'req_2')).rejects.toBe(refused)
    expect(s.calls).toEqual(['a', 'a'])
  })

  test('breaker trips are logged with their reason, and so are skipped routes', async () => {
    const h = harness()
    const a = route('a', { retries: 0, breaker: { failures: 2, cooldownMs: 60_000 } })
    const b = route('b', { retries: 0, breaker: { enabled: false } })
    const s = scripted({ a: [fail({ kind: 'timeout' }), fail({ kind: 'timeout' })], b: [undefined, undefined, undefined] })
    for (let i = 0; i < 3; i++) expect((await withFailover(h.router, [a, b], s.attempt, `req_${i}`)).route).toBe(b)
    expect(s.calls).toEqual(['a', 'b', 'a', 'b', 'b'])
    const opened = h.lines.find((l) => l.msg === 'breaker opened')!
    expect(opened).toMatchObject({ level: 'warn', fields: { breaker: 'gw:a', reason: '2 consecutive failures' } })
    expect(h.lines.find((l) => l.msg === 'route skipped: breaker open')!.fields).toMatchObject({ requestId: 'req_2', breaker: 'gw:a' })
    expect(h.router.counters.snapshot()).toMatchObject({ breakerOpened: 1, breakerSkips: 1, attempts: 5 })
  })

  test('every route skipped → 503 without an attempt, Retry-After the time until the next probe', async () => {
    const h = harness()
    const a = route('a', { retries: 0, breaker: { failures: 1, cooldownMs: 60_000 } })
    h.router.breakers.record(a, fail({ kind: 'connect' }))
    const s = scripted({ a: [undefined] })
    const err = await withFailover(h.router, [a], s.attempt, 'req_x').catch((e) => e)
    expect(err).toBeInstanceOf(GatewayError)
    expect(err).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', status: 503 })
    expect(err.extra.headers).toEqual({ 'retry-after': '60' })
    expect(s.calls).toEqual([])
  })
})

/** A router whose breaker for route `a` is open and past its cool-down: the next call probes. */
function halfOpen() {
  let now = 1_000_000
  const router = new Router(
    createMemoryBoard(() => now),
    harness().router.log,
    () => now,
    async () => {},
  )
  const a = route('a', { retries: 0, breaker: { failures: 1, cooldownMs: 1_000 } })
  router.breakers.record(a, fail({ kind: 'connect' }))
  now += 1_001
  return { router, a }
}

/** A call whose end the test decides: `leave()` ends it as a client that went away would. */
function callOf(): CallView & { leave(): CallEnded } {
  let ended: EndCause | undefined
  let wake: (() => void) | undefined
  return {
    get ended() {
      return ended
    },
    pause: (wait) => new Promise<void>((resolve) => ((wake = resolve), wait.then(resolve))),
    leave() {
      ended = { kind: 'client_left' }
      wake?.()
      return new CallEnded(ended)
    },
  }
}

describe('failover when the call itself ends (docs/failover.md "Who ended the call")', () => {
  test('an attempt cut by its client leaving is no failure: no breaker, no retry, no next route', async () => {
    const h = harness()
    const a = route('a', { retries: 2, breaker: { failures: 1, cooldownMs: 60_000 } })
    const b = route('b', {})
    const call = callOf()
    const calls: string[] = []
    const attempt = async (r: Route) => {
      calls.push(r.gateway.id)
      throw call.leave()
    }
    const err = await withFailover(h.router, [a, b], attempt, 'req_c', call).catch((e) => e)
    expect(err).toBeInstanceOf(CallEnded)
    expect(calls).toEqual(['a'])
    expect(h.router.breakers.phase('gw:a')).toBe('closed')
    expect(h.router.counters.snapshot()).toMatchObject({ attempts: 1, retries: 0, failovers: 0, breakerOpened: 0 })
    expect(h.msgs()).not.toContain('upstream attempt failed')
  })

  test('a client leaving during a backoff ends the wait at once; the retry is neither made nor counted', async () => {
    const lines: string[] = []
    const log = Object.fromEntries(
      ['debug', 'info', 'warn', 'error'].map((l) => [l, (msg: string) => void lines.push(msg)]),
    ) as unknown as Logger
    const call = callOf()
    // A sleep that never ends by itself: only the call's end can cut it short.
    const router = new Router(createMemoryBoard(), log, Date.now, () => new Promise<void>(() => {}))
    const a = route('a', { retries: 2, backoffMs: 100, breaker: { enabled: false } })
    const s = scripted({ a: [fail({ kind: 'status', status: 503 }), undefined] })
    const pending = withFailover(router, [a], s.attempt, 'req_d', call).catch((e) => e)
    while (router.counters.backingOff === 0) await Bun.sleep(1)
    call.leave()
    expect(await pending).toBeInstanceOf(CallEnded)
    expect(s.calls).toEqual(['a'])
    expect(router.counters.snapshot()).toMatchObject({ attempts: 1, retries: 0, backingOff: 0 })
  })

  test('a half-open probe whose client left frees the probe: the next call probes at once', async () => {
    const { router, a } = halfOpen()
    const call = callOf()
    const left = await withFailover(router, [a], async () => Promise.reject(call.leave()), 'req_p1', call).catch((e) => e)
    expect(left).toBeInstanceOf(CallEnded)
    expect(router.breakers.phase('gw:a')).toBe('half-open')
    const served = await withFailover(router, [a], async () => 'ok', 'req_p2')
    expect(served.value).toBe('ok')
    expect(router.breakers.phase('gw:a')).toBe('closed')
    expect(router.counters.probes).toBe(2)
  })

  test('a request that cannot be built for a route (its own fault) is neither success nor failure for the breaker', async () => {
    const { router, a } = halfOpen()
    const refused = new GatewayError('BAD_REQUEST', 'messages[1].content[0].type: unknown block')
    expect(await withFailover(router, [a], async () => Promise.reject(refused), 'req_v').catch((e) => e)).toBe(refused)
    expect(router.breakers.phase('gw:a')).toBe('half-open')
    expect((await withFailover(router, [a], async () => 'ok', 'req_w')).value).toBe('ok')
    expect(router.breakers.phase('gw:a')).toBe('closed')
  })
})
