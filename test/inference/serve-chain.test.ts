// A call's candidate models in turn (src/inference/serve-chain.ts, docs/failover.md "Model
// fallbacks") without HTTP in front: each model's routes in priority order and then the next model,
// every attempt recorded in order with why it was left; routes resting (breaker open, cooling)
// skipped without an attempt; a refusal ends the chain, a "too long" goes on only to a larger
// window; once the first content arrived nothing fails over; a caller gone stops the chain.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import type { CatalogModel } from '../../src/catalog/catalog.ts'
import { CallEnded, endOfThrown } from '../../src/core/call-end.ts'
import { GatewayError } from '../../src/core/errors.ts'
import type { Route } from '../../src/core/gateway.ts'
import { serveChain } from '../../src/inference/serve-chain.ts'
import type { ServedStream } from '../../src/inference/upstream-call.ts'
import { startFakeUpstream } from '../../src/testing/fake-upstream/server.ts'
import { catalogModel } from '../helpers/catalog-model.ts'
import { until } from '../helpers/until.ts'
import { attemptsOf, chatCall, gateway, readAll, routeTo, upstreamHarness } from '../helpers/upstream-calls.ts'

const up = startFakeUpstream()
afterAll(() => up.stop())
beforeEach(() => up.reset())

const seen = () => up.requests.map((q) => q.model)
const thrown = (p: Promise<unknown>) =>
  p.then(
    () => Promise.reject(new Error('answered')),
    (e: unknown) => e,
  )
const candidate = (model: CatalogModel) => ({ model, tokens: 0 })
/** A route on the fake whose upstream model is `up-<id>`. */
const r = (id: string, over: Partial<Omit<Route, 'gateway'>> = {}) => routeTo(gateway(id, up.url), over)
const failing = { error: { status: 500 } }

describe('serveChain', () => {
  test('the first candidate answers: the next model is never asked', async () => {
    const h = upstreamHarness()
    const a = catalogModel('acme/a', { routes: [r('a1')] })
    const b = catalogModel('acme/b', { routes: [r('b1')] })
    const { r: call } = chatCall(h, a)
    const answered = await serveChain(h.deps, call, [candidate(a), candidate(b)])
    expect(answered.model).toBe(a)
    expect(answered.served.gateway.id).toBe('a1')
    expect(seen()).toEqual(['up-a1'])
    expect(h.msgs()).not.toContain('falling back to another model')
  })

  test('routes in priority order, then the next model; every attempt recorded in order with why it was left', async () => {
    const h = upstreamHarness()
    // a2 comes first by its priority, though listed second.
    const a = catalogModel('acme/a', { routes: [r('a1', { priority: 1 }), r('a2', { priority: 0 })] })
    const b = catalogModel('acme/b', { routes: [r('b1')] })
    up.on('up-a1', failing).on('up-a2', { error: { status: 429 } })
    const { r: call } = chatCall(h, a)
    const answered = await serveChain(h.deps, call, [candidate(a), candidate(b)])
    expect(answered.model).toBe(b)
    expect(answered.served.gateway.id).toBe('b1')
    expect(seen()).toEqual(['up-a2', 'up-a1', 'up-b1'])
    expect(attemptsOf(call)).toEqual([
      ['a2', 'acme/a', 'UPSTREAM_ERROR', 429],
      ['a1', 'acme/a', 'UPSTREAM_ERROR', 500],
      ['b1', 'acme/b', 'ok', null],
    ])
    expect(call.obs.attempts.map((t) => t.upstreamModel)).toEqual(['up-a2', 'up-a1', 'up-b1'])
    for (const t of call.obs.attempts) expect(t.ms).toBeGreaterThanOrEqual(0)
    // One failover within acme/a; the move to acme/b is a fallback, logged as such.
    expect(h.router.counters.failovers).toBe(1)
    expect(h.lines.find((l) => l.msg === 'falling back to another model')!.fields).toEqual({
      requestId: call.requestId,
      from: 'acme/a',
      to: 'acme/b',
    })
  })

  test('a route whose breaker is open, and one cooling after a long 429, are skipped without an attempt', async () => {
    const h = upstreamHarness()
    const tripped = routeTo(gateway('a1', up.url, { policy: { retries: 0, breaker: { failures: 1, cooldownMs: 60_000 } } }))
    const cooling = r('a2')
    const a = catalogModel('acme/a', { routes: [tripped, cooling, r('a3')] })
    h.router.breakers.record(tripped, new GatewayError('UPSTREAM_ERROR', 'x', { retryable: true, upstream: { kind: 'connect' } }))
    h.router.cooling.cool(cooling, 60_000, 'req_before')
    const { r: call } = chatCall(h, a)
    const answered = await serveChain(h.deps, call, [candidate(a)])
    expect(answered.served.gateway.id).toBe('a3')
    expect(seen()).toEqual(['up-a3'])
    expect(attemptsOf(call)).toEqual([['a3', 'acme/a', 'ok', null]])
    expect(h.router.counters).toMatchObject({ breakerSkips: 1, attempts: 1 })
  })

  test('every route of a model resting: the next model answers, the resting one has no attempt', async () => {
    const h = upstreamHarness()
    const cooling = r('a1')
    const a = catalogModel('acme/a', { routes: [cooling] })
    const b = catalogModel('acme/b', { routes: [r('b1')] })
    h.router.cooling.cool(cooling, 60_000, 'req_before')
    const { r: call } = chatCall(h, a)
    const answered = await serveChain(h.deps, call, [candidate(a), candidate(b)])
    expect(answered.model).toBe(b)
    expect(seen()).toEqual(['up-b1'])
    expect(attemptsOf(call)).toEqual([['b1', 'acme/b', 'ok', null]])
  })

  test('a refusal of the request itself ends the chain: the next model is not asked', async () => {
    const h = upstreamHarness()
    const a = catalogModel('acme/a', { routes: [r('a1')] })
    const b = catalogModel('acme/b', { routes: [r('b1')] })
    up.on('up-a1', { error: { status: 400, message: 'unknown parameter' } })
    const { r: call } = chatCall(h, a)
    const err = (await thrown(serveChain(h.deps, call, [candidate(a), candidate(b)]))) as GatewayError
    expect(err.code).toBe('UPSTREAM_REJECTED')
    expect(seen()).toEqual(['up-a1'])
    expect(h.msgs()).not.toContain('falling back to another model')
  })

  test('"too long": only a candidate with a larger window is tried; none larger → the first model’s context error', async () => {
    const h = upstreamHarness()
    const a = catalogModel('acme/a', { contextWindow: 8_000, routes: [r('a1')] })
    const same = catalogModel('acme/same', { contextWindow: 8_000, routes: [r('s1')] })
    const large = catalogModel('acme/large', { contextWindow: 32_000, routes: [r('l1')] })
    const tooLong = { error: { status: 400, message: 'maximum context length is 8000 tokens' } }
    up.on('up-a1', tooLong)
    const { r: call } = chatCall(h, a)
    const answered = await serveChain(h.deps, call, [candidate(a), candidate(same), candidate(large)])
    expect(answered.model).toBe(large)
    expect(seen()).toEqual(['up-a1', 'up-l1'])

    up.reset()
    up.on('up-a1', tooLong)
    const small = catalogModel('acme/small', { contextWindow: 4_000, routes: [r('m1')] })
    const again = chatCall(h, a)
    const err = (await thrown(serveChain(h.deps, again.r, [candidate(a), candidate(small)]))) as GatewayError
    expect(err.code).toBe('CONTEXT_LENGTH_EXCEEDED')
    expect(err.message).toContain('context window of 8000 tokens')
    expect(seen()).toEqual(['up-a1'])
  })

  test('the last candidate failing too: its error, an upstream failure', async () => {
    const h = upstreamHarness()
    const a = catalogModel('acme/a', { routes: [r('a1')] })
    const b = catalogModel('acme/b', { routes: [r('b1')] })
    up.on('up-a1', failing).on('up-b1', failing)
    const { r: call } = chatCall(h, a)
    const err = await thrown(serveChain(h.deps, call, [candidate(a), candidate(b)]))
    expect(endOfThrown(err)).toMatchObject({ kind: 'upstream_failed', afterFirstByte: false, error: { code: 'UPSTREAM_ERROR' } })
    expect(seen()).toEqual(['up-a1', 'up-b1'])
  })
})

describe('no failover after the first byte', () => {
  /** A model with two routes and a fallback: plenty left to fail over to, were it allowed. */
  const chain = () => {
    const a = catalogModel('acme/a', { routes: [r('a1'), r('a2')] })
    const b = catalogModel('acme/b', { routes: [r('b1')] })
    return { a, chain: [candidate(a), candidate(b)] }
  }

  test('an error event after the first content: the stream stays the first route’s, nothing else asked', async () => {
    const h = upstreamHarness()
    const c = chain()
    up.on('up-a1', { text: 'one two three', errorAfterChars: 4, frameDelayMs: 20 })
    const { r: call } = chatCall(h, c.a, { stream: true })
    const answered = await serveChain(h.deps, call, c.chain)
    expect(answered.model).toBe(c.a)
    expect(answered.served.gateway.id).toBe('a1')
    const text = await readAll((answered.served as ServedStream).stream)
    expect(text).toContain('"content":"one "')
    expect(text).not.toContain('two')
    expect(seen()).toEqual(['up-a1'])
    expect(h.router.counters.failovers).toBe(0)
    expect(attemptsOf(call)).toEqual([['a1', 'acme/a', 'ok', null]])
  })

  test('the connection cut after the first content: the read fails, nothing else asked', async () => {
    const h = upstreamHarness()
    const c = chain()
    // Where the frame after "one " starts, from a clean answer of the same text.
    const probe = chatCall(h, c.a, { stream: true })
    up.once('up-a1', { text: 'one two three' })
    const clean = await readAll(((await serveChain(h.deps, probe.r, c.chain)).served as ServedStream).stream)
    const cut = clean.indexOf('data: ', clean.indexOf('"content":"one "')) + 20
    up.reset()
    up.on('up-a1', { text: 'one two three', cutAfterBytes: cut, frameDelayMs: 20 })
    const { r: call } = chatCall(h, c.a, { stream: true })
    const answered = await serveChain(h.deps, call, c.chain)
    expect(answered.served.gateway.id).toBe('a1')
    await expect(readAll((answered.served as ServedStream).stream)).rejects.toBeDefined()
    expect(seen()).toEqual(['up-a1'])
    expect(attemptsOf(call)).toEqual([['a1', 'acme/a', 'ok', null]])
  })
})

describe('a caller gone stops the chain', () => {
  test('the client leaves while the first model’s route hangs: CallEnded, no other route or model asked', async () => {
    const h = upstreamHarness()
    const a = catalogModel('acme/a', { routes: [r('a1'), r('a2')] })
    const b = catalogModel('acme/b', { routes: [r('b1')] })
    up.on('up-a1', { hang: true })
    const { r: call, client } = chatCall(h, a)
    const pending = thrown(serveChain(h.deps, call, [candidate(a), candidate(b)]))
    await until(() => up.requests.length === 1, 'the upstream request')
    client.abort()
    const err = await pending
    expect(err).toBeInstanceOf(CallEnded)
    expect(endOfThrown(err)).toEqual({ kind: 'client_left' })
    expect(seen()).toEqual(['up-a1'])
    expect(h.msgs()).not.toContain('falling back to another model')
    expect(h.msgs()).not.toContain('upstream attempt failed')
    expect(h.router.counters.failovers).toBe(0)
  })

  test('a drain ends the call while the first model fails: the fallback is not tried', async () => {
    const h = upstreamHarness()
    const a = catalogModel('acme/a', { routes: [r('a1')] })
    const b = catalogModel('acme/b', { routes: [r('b1')] })
    up.on('up-a1', { hang: true })
    const { r: call, drain } = chatCall(h, a)
    const pending = thrown(serveChain(h.deps, call, [candidate(a), candidate(b)]))
    await until(() => up.requests.length === 1, 'the upstream request')
    drain.fire()
    expect(endOfThrown(await pending)).toEqual({ kind: 'drain' })
    expect(seen()).toEqual(['up-a1'])
  })
})
