// Admission (src/inference/admission.ts) without HTTP: authenticate, then admit on the in-process
// store and on Redis. An admitted call holds its reservation and a lease (released at its deadline
// as an abandoned call, billed its prompt estimate); a refused one — balance (the overdraft bound
// balance − 2 × reserved ≥ reservation, docs/operations.md "Overdraft"), key spend limit, rpm, tpm,
// calls in flight — reserves nothing, holds no lease and is no longer in flight.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { KeyPrincipal } from '../../src/auth/api-keys.ts'
import type { AccountMirror } from '../../src/billing/mirror.ts'
import { callRecord, decodeRecord, recorded } from '../../src/billing/outbox-record.ts'
import { spendKey } from '../../src/billing/spend-period.ts'
import type { Route } from '../../src/core/gateway.ts'
import type { Usage } from '../../src/core/usage.ts'
import { GatewayError } from '../../src/core/errors.ts'
import { type AdmitDeps, admit, authenticate, type Call } from '../../src/inference/admission.ts'
import { CallLife } from '../../src/inference/call-life.ts'
import { InFlight } from '../../src/inference/inflight.ts'
import { base62 } from '../../src/lib/ids.ts'
import { silentLogger } from '../../src/lib/log.ts'
import { CallObserver } from '../../src/observability/call-observer.ts'
import { Metrics } from '../../src/observability/telemetry.ts'
import { noopTracer } from '../../src/observability/tracing.ts'
import { resolvePolicy } from '../../src/routing/policy.ts'
import { createMemoryStore } from '../../src/store/memory.ts'
import { createRedisStore } from '../../src/store/redis.ts'
import type { Store } from '../../src/store/types.ts'
import { catalogModel } from '../helpers/catalog-model.ts'
import { Exposition } from '../helpers/prometheus.ts'
import { describeServices, freshKeyPrefix, REDIS_URL } from '../helpers/services.ts'

/** The error `p` rejected with; the test fails when it resolved. */
const rejection = (p: Promise<unknown>): Promise<GatewayError> =>
  p.then(
    () => Promise.reject(new Error('resolved')),
    (e: unknown) => e as GatewayError,
  )

/** Half way through a rate window: every window answer says 30 s to its end. */
const NOW = Date.UTC(2026, 10, 27, 12, 0, 30)

const usage = (input: number, output: number): Usage => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
})

const route = (id: string, timeoutMs: number): Route => ({
  gateway: { id, protocol: 'openai-chat', baseUrl: 'http://x', apiKey: undefined, timeoutMs, enabled: true, policy: resolvePolicy({}) },
  upstreamModel: `up-${id}`,
})

// $1 / $2 per 1M tokens: 1 micro-USD a prompt token, 2 an output token. Two routes of 10 s and
// 20 s: the lease runs until every route's timeout in turn plus the 5 s margin (35 s).
const MODEL = catalogModel('acme/chat', { routes: [route('gw-a', 10_000), route('gw-b', 20_000)] })
/** The call's estimate: 100 prompt tokens, 200 output; as planned it reserves 100 + 400 micro-USD. */
const ESTIMATE = usage(100, 200)
const RESERVE = 500n

const principal = (over: Partial<KeyPrincipal> = {}): KeyPrincipal => ({
  keyId: `k_${base62(10)}`,
  userId: `u_${base62(10)}`,
  limitMicros: null,
  rpm: 60,
  serviceMode: 'standard',
  expiresAt: null,
  allowsModel: () => true,
  allowsIp: null,
  tpm: null,
  maxConcurrent: null,
  limitReset: null,
  ...over,
})

/**
 * One account on `store`: its key, a mirror that loads `balance` (and `spent` on the key) when
 * admission finds it cold, and what admission told the mirror, the in-flight count and metrics.
 */
function account(store: Store, balance: bigint, key: Partial<KeyPrincipal> = {}, spent = 0n) {
  const p = principal(key)
  const warmed: string[] = []
  const forgotten: [string, string][] = []
  const accounts: AccountMirror = {
    warm: async (k, spendKey) => {
      warmed.push(spendKey)
      await store.loadAccount(k.userId, k.keyId, balance, spent, undefined, spendKey)
    },
    forget: (userId, leaseId) => void forgotten.push([userId, leaseId]),
    beforeAdmit: () => undefined,
  }
  const inflight = new InFlight()
  const metrics = new Metrics({ processMetrics: false })
  const deps: AdmitDeps = { store, accounts, inflight, now: () => NOW }
  const admitting = (reserveMicros: bigint) => {
    const requestId = `req_${base62(12)}`
    const obs = new CallObserver(metrics, noopTracer, silentLogger, 'chat', new Headers(), requestId, performance.now())
    const life = new CallLife(new AbortController().signal, inflight.cut)
    return {
      requestId,
      protocol: 'chat',
      stream: false,
      principal: p,
      model: MODEL,
      estimate: ESTIMATE,
      reserveMicros,
      t0: 0,
      at: NOW,
      obs,
      life,
    }
  }
  return {
    p,
    deps,
    inflight,
    metrics,
    warmed,
    forgotten,
    admitting,
    admit: (reserveMicros = RESERVE) => admit(deps, admitting(reserveMicros)),
    /** The refusal admission threw. */
    refused: (reserveMicros = RESERVE) => rejection(admit(deps, admitting(reserveMicros))),
    held: async () => (await store.account(p.userId))!,
    leases: async () => (await store.accountLeases(p.userId)).sort(),
    refusals: async (reason: string) => new Exposition(await metrics.scrape()).value('tollgate_refusals_total', { reason }),
  }
}

/** Settles an admitted call as billing does: its lease ended, reservation released, `cost` debited. */
const settle = (store: Store, call: Call, costMicros: bigint) =>
  store.settle({
    userId: call.principal.userId,
    keyId: call.principal.keyId,
    reservedMicros: call.reservedMicros,
    costMicros,
    leaseId: call.requestId,
    spendKey: call.spendKey,
    record: callRecord(recorded(call), {
      gateway: 'gw-a',
      status: 200,
      errorCode: null,
      fault: null,
      usage: ESTIMATE,
      costMicros,
      usageSource: 'upstream',
      latencyMs: 1,
    }),
  })

const STORES: {
  name: string
  describe: (name: string, fn: () => void) => void
  open: () => Promise<{ store: Store; close: () => Promise<void> }>
}[] = [
  {
    name: 'in-process',
    describe,
    open: async () => {
      const store = createMemoryStore()
      return { store, close: () => store.close() }
    },
  },
  {
    name: 'Redis',
    describe: describeServices,
    open: async () => {
      const keys = freshKeyPrefix()
      const store = await createRedisStore(REDIS_URL, { prefix: keys.prefix, shards: 4 })
      return {
        store,
        close: async () => {
          await store.close()
          await keys.clear()
        },
      }
    },
  },
]

for (const s of STORES)
  s.describe(`admit on the ${s.name} store`, () => {
    let store: Store
    let close: () => Promise<void>
    beforeAll(async () => {
      ;({ store, close } = await s.open())
    })
    afterAll(() => close())

    test('admitted: the reservation held, the rate window counted, the lease and spend key the call carries', async () => {
      const a = account(store, 10_000n)
      const call = await a.admit()
      // A cold account is loaded once, under the key's spend key (a lifetime limit: the key id).
      expect(a.warmed).toEqual([a.p.keyId])
      expect(call.reservedMicros).toBe(500n)
      expect(call.settled).toBe(false)
      expect(call.rate).toEqual({ limit: 60, remaining: 59, resetMs: 30_000 })
      expect(call.tokenRate).toBeUndefined()
      expect(call.tokensAt).toBeNull()
      expect(call.spendKey).toBe(a.p.keyId)
      expect(call.leaseDeadlineMs).toBe(NOW + 35_000)
      // The request log's attempts are the observer's, filled as they happen.
      expect(call.attempts).toBe(call.obs.attempts)
      expect(await a.held()).toEqual({ balanceMicros: 10_000n, reservedMicros: 500n })
      expect(await a.leases()).toEqual([call.requestId])
      expect(a.inflight.calls).toBe(1)
      expect(a.metrics.reservedMicros).toBe(500)
      // A second call: the rate window counts it, the reservations add up.
      const second = await a.admit(300n)
      expect(second.rate.remaining).toBe(58)
      expect(await a.held()).toEqual({ balanceMicros: 10_000n, reservedMicros: 800n })
      expect(a.warmed).toHaveLength(1)
      expect(a.inflight.calls).toBe(2)
    })

    test('settled: the reservation back to zero, the cost debited to the micro-USD, the lease gone', async () => {
      const a = account(store, 10_000n)
      const call = await a.admit()
      expect(await settle(store, call, 321n)).toBe(true)
      expect(await a.held()).toEqual({ balanceMicros: 9_679n, reservedMicros: 0n })
      expect(await a.leases()).toEqual([])
    })

    test('the lease: released at its deadline as abandoned, billed its prompt estimate; a late settlement moves nothing', async () => {
      const a = account(store, 10_000n)
      const call = await a.admit()
      expect(await store.sweepLeases(call.leaseDeadlineMs - 1, 100)).toBe(0)
      expect(await a.held()).toEqual({ balanceMicros: 10_000n, reservedMicros: 500n })
      expect(await store.sweepLeases(call.leaseDeadlineMs + 1, 100)).toBeGreaterThanOrEqual(1)
      // Nothing is known of what was delivered: the 100 prompt tokens at 1 micro-USD, no output.
      expect(await a.held()).toEqual({ balanceMicros: 9_900n, reservedMicros: 0n })
      expect(await a.leases()).toEqual([])
      const { calls } = await store.outboxCalls(a.p.userId)
      expect(calls).toEqual([{ requestId: call.requestId, keyId: a.p.keyId, costMicros: 100n }])
      // The record the lease carried: an abandoned call, Tollgate's failure, billed from the estimate.
      const entry = (await store.readOutbox('admission-test', 1_000, 0)).find((e) => decodeRecord(e.record)?.requestId === call.requestId)
      const r = decodeRecord(entry!.record)!
      expect([r.status, r.errorCode, r.fault, r.cost, r.usageSource, r.gateway, r.model, r.userId]).toEqual([
        500,
        'ABANDONED',
        'tollgate',
        '100',
        'estimate',
        null,
        'acme/chat',
        a.p.userId,
      ])
      expect([r.usage.inputTokens, r.usage.outputTokens]).toEqual([100, 0])
      expect(await settle(store, call, 321n)).toBe(false)
      expect(await a.held()).toEqual({ balanceMicros: 9_900n, reservedMicros: 0n })
    })

    test('402 insufficient balance: nothing reserved, no lease, not in flight, the request not counted', async () => {
      const a = account(store, 499n)
      const err = await a.refused(500n)
      expect(err).toBeInstanceOf(GatewayError)
      expect([err.code, err.status, err.message]).toEqual([
        'PAYMENT_REQUIRED',
        402,
        'Insufficient account balance for this request; top up your credit.',
      ])
      // The window's headers, but no Retry-After: waiting does not top up an account.
      expect(err.extra.headers).toEqual({ 'ratelimit-limit': '60', 'ratelimit-remaining': '60', 'ratelimit-reset': '30' })
      expect(await a.held()).toEqual({ balanceMicros: 499n, reservedMicros: 0n })
      expect(await a.leases()).toEqual([])
      expect(a.inflight.calls).toBe(0)
      expect(a.metrics.reservedMicros).toBe(0)
      expect(await a.refusals('balance')).toBe(1)
      // The refused request took nothing from the rate window.
      expect((await a.admit(499n)).rate.remaining).toBe(59)
      expect(await a.held()).toEqual({ balanceMicros: 499n, reservedMicros: 499n })
    })

    test('the overdraft bound: admitted while balance − 2 × reserved ≥ reservation, to the micro-USD', async () => {
      const a = account(store, 1_000n)
      await a.admit(300n) // 1,000 − 0 ≥ 300
      // 1,000 − 2 × 300 = 400: 401 is refused, 400 admitted.
      expect((await a.refused(401n)).code).toBe('PAYMENT_REQUIRED')
      expect(await a.held()).toEqual({ balanceMicros: 1_000n, reservedMicros: 300n })
      await a.admit(400n)
      // 1,000 − 2 × 700 < 0: not even one micro-USD more.
      expect((await a.refused(1n)).code).toBe('PAYMENT_REQUIRED')
      expect(await a.held()).toEqual({ balanceMicros: 1_000n, reservedMicros: 700n })
      expect(await a.leases()).toHaveLength(2)
      expect(a.inflight.calls).toBe(2)
      expect(await a.refusals('balance')).toBe(2)
    })

    test('key spend limit: refused once spent + reserved + the reservation passes it; equal is admitted', async () => {
      const a = account(store, 10_000n, { limitMicros: 1_000n }, 300n)
      await a.admit(500n) // 300 + 0 + 500 = 800
      const err = await a.refused(201n) // 300 + 500 + 201 = 1,001
      expect([err.code, err.status, err.message]).toEqual([
        'PAYMENT_REQUIRED',
        402,
        "This API key's spend limit would be exceeded by this request.",
      ])
      expect(await a.refusals('key_limit')).toBe(1)
      expect(await a.held()).toEqual({ balanceMicros: 10_000n, reservedMicros: 500n })
      await a.admit(200n) // exactly 1,000
      expect(await a.held()).toEqual({ balanceMicros: 10_000n, reservedMicros: 700n })
    })

    test('a limit that resets counts under its period: the spend key names the day', async () => {
      const a = account(store, 10_000n, { limitMicros: 1_000n, limitReset: 'daily' }, 900n)
      const day = `${a.p.keyId}@${Date.UTC(2026, 10, 27)}`
      expect(spendKey(a.p.keyId, 'daily', NOW)).toBe(day)
      const call = await a.admit(100n)
      expect(call.spendKey).toBe(day)
      expect(a.warmed).toEqual([day])
      expect((await a.refused(1n)).code).toBe('PAYMENT_REQUIRED')
      expect(await settle(store, call, 100n)).toBe(true)
      expect(await a.held()).toEqual({ balanceMicros: 9_900n, reservedMicros: 0n })
    })

    test('rpm: the request past the window refused 429 with Retry-After its end, nothing reserved for it', async () => {
      const a = account(store, 10_000n, { rpm: 2 })
      expect((await a.admit()).rate.remaining).toBe(1)
      expect((await a.admit()).rate.remaining).toBe(0)
      const err = await a.refused()
      expect([err.code, err.status, err.message]).toEqual([
        'RATE_LIMITED',
        429,
        'Rate limit of 2 requests per minute exceeded for this API key.',
      ])
      expect(err.extra.headers).toEqual({
        'ratelimit-limit': '2',
        'ratelimit-remaining': '0',
        'ratelimit-reset': '30',
        'retry-after': '30',
      })
      expect(await a.refusals('rate_limit')).toBe(1)
      expect(await a.held()).toEqual({ balanceMicros: 10_000n, reservedMicros: 1_000n })
      expect(await a.leases()).toHaveLength(2)
      expect(a.inflight.calls).toBe(2)
    })

    test('tpm: the estimate counted in the token window; past it, 429 with Retry-After the token window’s end', async () => {
      const a = account(store, 10_000n, { tpm: 500 })
      const call = await a.admit()
      // 100 prompt + 200 output tokens estimated.
      expect(call.tokenRate).toEqual({ limit: 500, remaining: 200, resetMs: 30_000 })
      expect(call.tokensAt).toBe(NOW)
      const err = await a.refused()
      expect([err.code, err.message]).toEqual(['RATE_LIMITED', 'Token rate limit of 500 tokens per minute exceeded for this API key.'])
      expect(err.extra.headers).toMatchObject({
        'x-ratelimit-limit-tokens': '500',
        'x-ratelimit-remaining-tokens': '200',
        'x-ratelimit-reset-tokens': '30',
        'retry-after': '30',
      })
      expect(await a.refusals('tpm')).toBe(1)
      expect(await a.held()).toEqual({ balanceMicros: 10_000n, reservedMicros: 500n })
    })

    test('calls in flight: one past maxConcurrent refused with Retry-After 1; a settled call frees its place', async () => {
      const a = account(store, 10_000n, { maxConcurrent: 1 })
      const first = await a.admit()
      const err = await a.refused()
      expect([err.code, err.message]).toEqual(['RATE_LIMITED', 'This API key has as many calls in flight as it may; retry when one ends.'])
      expect(err.extra.headers?.['retry-after']).toBe('1')
      expect(await a.refusals('concurrency')).toBe(1)
      expect(await a.held()).toEqual({ balanceMicros: 10_000n, reservedMicros: 500n })
      expect(await settle(store, first, 500n)).toBe(true)
      const next = await a.admit()
      expect(await a.leases()).toEqual([next.requestId])
      expect(await a.held()).toEqual({ balanceMicros: 9_500n, reservedMicros: 500n })
    })
  })

describe('admit when it cannot ask', () => {
  const failing = (admitFails: boolean): Store => {
    const store = createMemoryStore()
    return admitFails ? { ...store, admit: () => Promise.reject(new Error('store down')) } : store
  }

  test('draining: SHUTTING_DOWN before the store is asked, nothing in flight', async () => {
    const a = account(failing(false), 10_000n)
    a.inflight.draining = true
    const err = await a.refused()
    expect([err.code, err.status, err.extra.headers]).toEqual(['SHUTTING_DOWN', 503, { 'retry-after': '1' }])
    expect(a.warmed).toEqual([])
    expect(a.inflight.calls).toBe(0)
  })

  test('the store does not answer: 503 with Retry-After, the lease ended and the mirror dropped, nothing in flight', async () => {
    const a = account(failing(true), 10_000n)
    const c = a.admitting(RESERVE)
    const err = await rejection(admit(a.deps, c))
    expect([err.code, err.status, err.extra.headers]).toEqual(['SERVICE_UNAVAILABLE', 503, { 'retry-after': '1' }])
    // It may still reserve later: its lease is ended and the account's mirror dropped after it.
    expect(a.forgotten).toEqual([[a.p.userId, c.requestId]])
    expect(a.inflight.calls).toBe(0)
    expect(new Exposition(await a.metrics.scrape()).value('tollgate_store_errors_total', { op: 'admit' })).toBe(1)
  })

  test('the account cannot be loaded, or is still cold after loading: 503, nothing reserved', async () => {
    const store = createMemoryStore()
    const a = account(store, 10_000n)
    a.deps.accounts = { ...a.deps.accounts, warm: () => Promise.reject(new Error('postgres down')) }
    expect((await a.refused()).code).toBe('SERVICE_UNAVAILABLE')
    a.deps.accounts = { ...a.deps.accounts, warm: async () => {} }
    const cold = await a.refused()
    expect([cold.code, (cold.cause as Error).message]).toEqual(['SERVICE_UNAVAILABLE', 'account still cold after load'])
    expect(await store.account(a.p.userId)).toBeUndefined()
    expect(a.inflight.calls).toBe(0)
  })
})

describe('authenticate', () => {
  const p = principal()
  const auth = (verify: (secret: string | undefined) => Promise<KeyPrincipal | undefined>) => ({ verify })

  test('the key from Authorization: Bearer or x-api-key; the principal it names', async () => {
    const asked: (string | undefined)[] = []
    const a = auth(async (s) => {
      asked.push(s)
      return p
    })
    expect(await authenticate(a, new Headers({ authorization: 'Bearer sk-one' }))).toBe(p)
    expect(await authenticate(a, new Headers({ 'x-api-key': 'sk-two' }))).toBe(p)
    expect(asked).toEqual(['sk-one', 'sk-two'])
  })

  test('no key, or one that names nobody: 401', async () => {
    const err = await rejection(
      authenticate(
        auth(async () => undefined),
        new Headers(),
      ),
    )
    expect([err.code, err.status]).toEqual(['UNAUTHORIZED', 401])
  })

  test('the key store unreachable: 503, never a 500', async () => {
    const err = await rejection(
      authenticate(
        auth(() => Promise.reject(new Error('ECONNREFUSED'))),
        new Headers({ authorization: 'Bearer sk-x' }),
      ),
    )
    expect([err.code, err.status]).toEqual(['SERVICE_UNAVAILABLE', 503])
  })
})
