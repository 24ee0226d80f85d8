// One model's upstream call (src/inference/upstream-call.ts) without HTTP in front: the request
// each route is sent (pass-through or translated: path, headers, auth, body), how its failures end
// the call as core/call-end.ts classifies them, the gateway's deadline and the first-token
// deadline, and a call its client or a drain ended — never an upstream failure: no breaker, no
// retry, no next route (docs/failover.md "Who ended the call").
import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { CallEnded, endedByCaller, endOfThrown, faultOf } from '../../src/core/call-end.ts'
import type { GatewayError } from '../../src/core/errors.ts'
import { callUpstream, type ServedJson, type ServedStream } from '../../src/inference/upstream-call.ts'
import { gatewayKeyOf } from '../../src/routing/breakers.ts'
import { startFakeUpstream } from '../../src/testing/fake-upstream/server.ts'
import { catalogModel } from '../helpers/catalog-model.ts'
import { until } from '../helpers/until.ts'
import { attemptsOf, chatCall, DEFAULT_MAX_OUTPUT, gateway, readAll, routeTo, upstreamHarness } from '../helpers/upstream-calls.ts'

const up = startFakeUpstream()
afterAll(() => up.stop())
beforeEach(() => up.reset())

const seen = () => up.requests.map((q) => q.model)
/** What a call threw. */
const thrown = (p: Promise<unknown>) =>
  p.then(
    () => Promise.reject(new Error('answered')),
    (e: unknown) => e,
  )

describe('the request sent upstream', () => {
  test('pass-through: the client’s body with the route’s model, the gateway’s key as Bearer, its own headers', async () => {
    const h = upstreamHarness()
    const gw = gateway('a', up.url, { headers: { 'X-Org': 'acme' } })
    const model = catalogModel('acme/chat', { routes: [routeTo(gw)] })
    const { r } = chatCall(h, model, { temperature: 0.5, user: 'alice' })
    const served = (await callUpstream(h.deps, r)) as ServedJson
    expect(up.requests).toHaveLength(1)
    const q = up.requests[0]!
    expect(q.path).toBe('/v1/chat/completions')
    expect(q.body).toEqual({ model: 'up-a', messages: [{ role: 'user', content: 'Hi' }], temperature: 0.5, user: 'alice' })
    expect(q.headers).toMatchObject({ authorization: 'Bearer sk-a', 'content-type': 'application/json', 'x-org': 'acme' })
    expect(served.native).toBe(true)
    expect(served.route).toBe(model.routes[0]!)
    expect(served.gateway.id).toBe('a')
    expect((served.json.parsed as any).choices[0].message.content).toBe('You said: Hi')
    expect(attemptsOf(r)).toEqual([['a', 'acme/chat', 'ok', null]])
    // The route's load is back to none once the answer was read.
    expect(h.router.load.inFlight('a', 'up-a')).toBe(0)
    expect(h.router.counters.attempts).toBe(1)
  })

  test('translated: a chat call to an Anthropic gateway — its path, x-api-key and version, the passed beta, the default output cap', async () => {
    const h = upstreamHarness()
    const gw = gateway('b', up.url, { protocol: 'anthropic-messages' })
    const model = catalogModel('acme/chat', { routes: [routeTo(gw)] })
    const { r } = chatCall(h, model, {}, { 'anthropic-beta': 'tools-1' })
    const served = (await callUpstream(h.deps, r)) as ServedJson
    const q = up.requests[0]!
    expect(q.path).toBe('/v1/messages')
    expect(q.headers).toMatchObject({ 'x-api-key': 'sk-b', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'tools-1' })
    expect(q.headers.authorization).toBeUndefined()
    expect(q.body).toMatchObject({ model: 'up-b', max_tokens: DEFAULT_MAX_OUTPUT, messages: [{ role: 'user' }] })
    expect(JSON.stringify(q.body.messages)).toContain('Hi')
    expect(served.native).toBe(false)
    expect((served.json.parsed as any).content[0].text).toBe('You said: Hi')
  })

  test('a stream: usage asked of the upstream, the body read to its end', async () => {
    const h = upstreamHarness()
    const model = catalogModel('acme/chat', { routes: [routeTo(gateway('a', up.url))] })
    const { r } = chatCall(h, model, { stream: true })
    const served = (await callUpstream(h.deps, r)) as ServedStream
    expect(up.requests[0]!.body).toMatchObject({ model: 'up-a', stream: true, stream_options: { include_usage: true } })
    const text = await readAll(served.stream)
    expect(text).toContain('"content":"said: "')
    expect(text).toContain('data: [DONE]')
  })
})

describe('failures, as core/call-end.ts classifies them', () => {
  test('a 5xx on every route: UPSTREAM_ERROR, an upstream failure; each attempt recorded with its status', async () => {
    const h = upstreamHarness()
    const model = catalogModel('acme/chat', { routes: [routeTo(gateway('a', up.url)), routeTo(gateway('b', up.url))] })
    up.on('up-a', { error: { status: 500 } }).on('up-b', { error: { status: 503 } })
    const { r } = chatCall(h, model)
    const err = (await thrown(callUpstream(h.deps, r))) as GatewayError
    expect([err.code, err.status]).toEqual(['UPSTREAM_ERROR', 502])
    const end = endOfThrown(err)
    expect(end.kind).toBe('upstream_failed')
    expect(faultOf(end)).toBe('upstream')
    expect(seen()).toEqual(['up-a', 'up-b'])
    expect(attemptsOf(r)).toEqual([
      ['a', 'acme/chat', 'UPSTREAM_ERROR', 500],
      ['b', 'acme/chat', 'UPSTREAM_ERROR', 503],
    ])
    expect(h.router.counters.failovers).toBe(1)
  })

  test('a 400: the request’s own refusal, no other route asked, no fault', async () => {
    const h = upstreamHarness()
    const model = catalogModel('acme/chat', { routes: [routeTo(gateway('a', up.url)), routeTo(gateway('b', up.url))] })
    up.on('up-a', { error: { status: 400, message: 'temperature out of range' } })
    const { r } = chatCall(h, model)
    const err = (await thrown(callUpstream(h.deps, r))) as GatewayError
    expect([err.code, err.status]).toEqual(['UPSTREAM_REJECTED', 400])
    const end = endOfThrown(err)
    expect(end.kind).toBe('refused')
    expect(faultOf(end)).toBeNull()
    expect(seen()).toEqual(['up-a'])
  })

  test('an upstream "too long": CONTEXT_LENGTH_EXCEEDED naming the catalog’s window, not the upstream’s words', async () => {
    const h = upstreamHarness()
    const model = catalogModel('acme/chat', {
      contextWindow: 8_000,
      routes: [routeTo(gateway('a', up.url)), routeTo(gateway('b', up.url))],
    })
    up.on('up-a', { error: { status: 400, message: 'prompt is too long: 9000 tokens > 4096 maximum' } })
    const { r } = chatCall(h, model)
    const err = (await thrown(callUpstream(h.deps, r))) as GatewayError
    expect([err.code, err.status]).toEqual(['CONTEXT_LENGTH_EXCEEDED', 400])
    expect(err.message).toContain('context window of 8000 tokens')
    expect(err.message).not.toContain('4096')
    expect(endOfThrown(err).kind).toBe('refused')
    expect(seen()).toEqual(['up-a'])
  })

  test('nothing listening: a connect failure, recorded as such, and the next route answers', async () => {
    const h = upstreamHarness()
    const closed = Bun.serve({ port: 0, fetch: () => new Response('') })
    const deadUrl = `http://127.0.0.1:${closed.port}`
    closed.stop(true)
    const model = catalogModel('acme/chat', { routes: [routeTo(gateway('dead', deadUrl)), routeTo(gateway('b', up.url))] })
    const { r } = chatCall(h, model)
    const served = await callUpstream(h.deps, r)
    expect(served.gateway.id).toBe('b')
    expect(attemptsOf(r)).toEqual([
      ['dead', 'acme/chat', 'UPSTREAM_ERROR', 'connect'],
      ['b', 'acme/chat', 'ok', null],
    ])
  })

  test('the gateway’s deadline: no answer within its timeout is UPSTREAM_TIMEOUT, and the breaker hears it', async () => {
    const h = upstreamHarness()
    const gw = gateway('slow', up.url, { timeoutMs: 150, policy: { retries: 0, breaker: { failures: 1, cooldownMs: 60_000 } } })
    const model = catalogModel('acme/chat', { routes: [routeTo(gw)] })
    up.on('up-slow', { hang: true })
    const { r } = chatCall(h, model)
    const err = (await thrown(callUpstream(h.deps, r))) as GatewayError
    expect(err.code).toBe('UPSTREAM_ERROR')
    expect((err.cause as GatewayError).code).toBe('UPSTREAM_TIMEOUT')
    expect(endOfThrown(err).kind).toBe('upstream_failed')
    expect(attemptsOf(r)).toEqual([['slow', 'acme/chat', 'UPSTREAM_TIMEOUT', 'timeout']])
    expect(h.router.breakers.phase(gatewayKeyOf('slow'))).toBe('open')
    expect(h.router.load.inFlight('slow', 'up-slow')).toBe(0)
  })

  test('a stream with another route left: no content within firstTokenMs fails over, counted as a slow first token', async () => {
    const h = upstreamHarness()
    const slow = gateway('slow', up.url, { policy: { retries: 0, firstTokenMs: 150, breaker: { enabled: false } } })
    const model = catalogModel('acme/chat', { routes: [routeTo(slow), routeTo(gateway('b', up.url))] })
    up.on('up-slow', { firstTokenMs: 3_000 })
    const { r } = chatCall(h, model, { stream: true })
    const served = (await callUpstream(h.deps, r)) as ServedStream
    expect(served.gateway.id).toBe('b')
    expect(attemptsOf(r)).toEqual([
      ['slow', 'acme/chat', 'UPSTREAM_TIMEOUT', 'first-token'],
      ['b', 'acme/chat', 'ok', null],
    ])
    expect(h.router.counters.firstTokenTimeouts).toBe(1)
    expect(await readAll(served.stream)).toContain('"content":"said: "')
  })

  test('the same slow first token on the last route: committed at its headers, the content still arrives', async () => {
    const h = upstreamHarness()
    const slow = gateway('slow', up.url, { policy: { retries: 0, firstTokenMs: 50, breaker: { enabled: false } } })
    const model = catalogModel('acme/chat', { routes: [routeTo(slow)] })
    up.on('up-slow', { firstTokenMs: 200 })
    const { r } = chatCall(h, model, { stream: true })
    const served = (await callUpstream(h.deps, r)) as ServedStream
    expect(served.gateway.id).toBe('slow')
    expect(await readAll(served.stream)).toContain('"content":"said: "')
    expect(h.router.counters.firstTokenTimeouts).toBe(0)
  })
})

describe('a call its caller ended', () => {
  /** A route that hangs, a route that would answer; the first fails on one failure and retries twice. */
  const setup = () => {
    const h = upstreamHarness()
    const hang = gateway('hang', up.url, { policy: { retries: 2, breaker: { failures: 1, cooldownMs: 60_000 } } })
    const model = catalogModel('acme/chat', { routes: [routeTo(hang), routeTo(gateway('b', up.url))] })
    up.on('up-hang', { hang: true })
    return { h, model }
  }

  test('the client goes away mid-attempt: CallEnded, no breaker, no retry, no next route', async () => {
    const { h, model } = setup()
    const { r, client } = chatCall(h, model)
    const pending = thrown(callUpstream(h.deps, r))
    await until(() => up.requests.length === 1, 'the upstream request')
    client.abort()
    const err = await pending
    expect(err).toBeInstanceOf(CallEnded)
    expect(endedByCaller(err)).toBe(true)
    const end = endOfThrown(err)
    expect(end).toEqual({ kind: 'client_left' })
    expect(faultOf(end)).toBeNull()
    expect(h.router.breakers.phase(gatewayKeyOf('hang'))).toBe('closed')
    expect(h.router.counters).toMatchObject({ retries: 0, failovers: 0 })
    expect(h.slept).toEqual([])
    // Not an upstream failure: nothing logged as one.
    expect(h.msgs()).not.toContain('upstream attempt failed')
    expect(seen()).toEqual(['up-hang'])
    expect(h.router.load.inFlight('hang', 'up-hang')).toBe(0)
  })

  test('a drain’s grace ends mid-attempt: CallEnded with the drain, nothing else tried', async () => {
    const { h, model } = setup()
    const { r, drain } = chatCall(h, model)
    const pending = thrown(callUpstream(h.deps, r))
    await until(() => up.requests.length === 1, 'the upstream request')
    drain.fire()
    const err = await pending
    expect(endOfThrown(err)).toEqual({ kind: 'drain' })
    expect(h.router.breakers.phase(gatewayKeyOf('hang'))).toBe('closed')
    expect(h.msgs()).not.toContain('upstream attempt failed')
    expect(seen()).toEqual(['up-hang'])
  })

  test('a client gone before the call: nothing is sent upstream', async () => {
    const { h, model } = setup()
    const { r, client } = chatCall(h, model)
    client.abort()
    const err = await thrown(callUpstream(h.deps, r))
    expect(endOfThrown(err)).toEqual({ kind: 'client_left' })
    expect(up.requests).toEqual([])
    expect(r.obs.attempts).toEqual([])
  })
})

describe('warm prompt caches', () => {
  test('the route that served a cache prefix is tried first by the next call with it', async () => {
    const h = upstreamHarness()
    const model = catalogModel('acme/chat', { routes: [routeTo(gateway('a', up.url)), routeTo(gateway('b', up.url))] })
    up.once('up-a', { error: { status: 500 } })
    const first = chatCall(h, model, { prompt_cache_key: 'conv-1' })
    expect((await callUpstream(h.deps, first.r)).gateway.id).toBe('b')
    const again = chatCall(h, model, { prompt_cache_key: 'conv-1' })
    expect((await callUpstream(h.deps, again.r)).gateway.id).toBe('b')
    // Another prefix keeps the catalog's order.
    const other = chatCall(h, model, { prompt_cache_key: 'conv-2' })
    expect((await callUpstream(h.deps, other.r)).gateway.id).toBe('a')
    expect(seen()).toEqual(['up-a', 'up-b', 'up-b', 'up-a'])
  })
})
