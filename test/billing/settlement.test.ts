// Settlement as billing owns it: once per call, one outbox record per call (the same builder for
// settled, refused and abandoned calls), and what a stream is billed when it ends.
import { describe, expect, test } from 'bun:test'
import { NOTHING_DELIVERED, outcomeFor, ZERO_USAGE } from '../../src/billing/bill.ts'
import { callRecord, decodeRecord } from '../../src/billing/outbox-record.ts'
import { type RefusedCall, type SettlementDeps, type SettlingCall, settle } from '../../src/billing/settlement.ts'
import { GatewayError } from '../../src/core/errors.ts'
import type { Usage } from '../../src/core/usage.ts'
import type { SettleInput } from '../../src/store/types.ts'

const usage = (input: number, output: number): Usage => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
})

function fakeDeps(settleFails = false) {
  const settled: SettleInput[] = []
  const appended: string[] = []
  const rescued: string[] = []
  const tracked: Promise<unknown>[] = []
  let ended = 0
  let failures = 0
  const deps: SettlementDeps = {
    store: {
      settle: async (input) => {
        if (settleFails) throw new Error('store down')
        settled.push(input)
        return true
      },
      appendOutbox: async (_userId, record) => void appended.push(record),
    },
    rescue: {
      rescue: async (_userId, record) => {
        failures++
        rescued.push(record)
      },
    },
    log: { debug() {}, info() {}, warn() {}, error() {} } as unknown as SettlementDeps['log'],
    inflight: { callEnded: () => void ended++, track: (p) => void tracked.push(p) },
  }
  return {
    deps,
    settled,
    appended,
    rescued,
    done: () => Promise.all(tracked),
    ended: () => ended,
    failures: () => failures,
  }
}

const call = (): SettlingCall => ({
  requestId: 'req_1',
  protocol: 'chat',
  stream: false,
  principal: { userId: 'u1', keyId: 'k1' },
  // 1 USD per 1M tokens each way (nano-USD per 1M tokens).
  model: { id: 'acme/model', pricing: { input: 1_000_000_000n, output: 2_000_000_000n, cacheRead: null, cacheWrite: null } },
  estimate: usage(100, 200),
  reservedMicros: 500n,
  t0: performance.now(),
  at: 1_700_000_000_000,
  settled: false,
})

describe('settlement', () => {
  test('settles once: cost from usage, reservation released, the record appended in the same trip', async () => {
    const f = fakeDeps()
    const c = call()
    const o = { status: 200, errorCode: null, fault: null, gateway: 'gw-a', usage: usage(100, 50), usageSource: 'upstream' as const }
    const first = settle(f.deps, c, o)!
    expect([first.costMicros, first.usageSource]).toEqual([200n, 'upstream'])
    expect(settle(f.deps, c, o)).toBeUndefined()
    expect((await first.trip).outcome).toBe('applied')
    await f.done()
    expect(f.ended()).toBe(1)
    expect(f.settled).toHaveLength(1)
    expect(f.settled[0]!.reservedMicros).toBe(500n)
    expect(f.settled[0]!.costMicros).toBe(200n)
    const r = decodeRecord(f.settled[0]!.record)!
    expect([r.model, r.gateway, r.status, r.cost, r.usageSource, r.at]).toEqual([
      'acme/model',
      'gw-a',
      200,
      '200',
      'upstream',
      1_700_000_000_000,
    ])
  })

  test('a failed store trip goes to the rescue with the same record, counted', async () => {
    const f = fakeDeps(true)
    const error = new GatewayError('UPSTREAM_ERROR', 'x')
    const c = call()
    const settled = settle(
      f.deps,
      c,
      outcomeFor(c.estimate, { kind: 'upstream_failed', error, afterFirstByte: false }, NOTHING_DELIVERED, null),
    )!
    expect((await settled.trip).outcome).toBe('rescued')
    await f.done()
    expect(f.failures()).toBe(1)
    expect(f.rescued).toHaveLength(1)
    const r = decodeRecord(f.rescued[0]!)!
    expect([r.status, r.errorCode, r.cost, r.usageSource]).toEqual([502, 'UPSTREAM_ERROR', '0', 'none'])
  })

  test('a refused call gets its record through the same builder, nothing billed', async () => {
    const f = fakeDeps()
    const r = { requestId: 'req_2', principal: { userId: 'u1', keyId: 'k1' }, model: 'asked', protocol: 'messages', stream: true }
    const refused: RefusedCall = { ...r, model: { id: 'asked' }, estimate: ZERO_USAGE, t0: performance.now(), at: 5, settled: false }
    const error = new GatewayError('RATE_LIMITED', 'slow down')
    const o = outcomeFor(refused.estimate, { kind: 'refused', error }, NOTHING_DELIVERED, null)
    // Nothing reserved: no store settlement to observe, no call in flight to count off, and once only.
    expect(settle(f.deps, refused, o)).toBeUndefined()
    settle(f.deps, refused, o)
    await f.done()
    expect([f.settled.length, f.appended.length, f.ended()]).toEqual([0, 1, 0])
    const got = decodeRecord(f.appended[0]!)!
    const built = decodeRecord(
      callRecord(
        { ...r, at: 5 },
        {
          gateway: null,
          status: 429,
          errorCode: 'RATE_LIMITED',
          fault: null,
          usage: usage(0, 0),
          costMicros: 0n,
          usageSource: 'none',
          latencyMs: 0,
        },
      ),
    )!
    expect({ ...got, latencyMs: 0 }).toEqual(built)
  })

  test('a refused call’s record goes to the rescue, without a lease, when the append fails', async () => {
    const f = fakeDeps()
    f.deps.store.appendOutbox = async () => {
      throw new Error('store down')
    }
    const leases: (string | undefined)[] = []
    f.deps.rescue = { rescue: async (_userId, record, _forget, leaseId) => void (f.rescued.push(record), leases.push(leaseId)) }
    const refused: RefusedCall = {
      requestId: 'req_3',
      principal: { userId: 'u1', keyId: 'k1' },
      model: { id: '' },
      protocol: 'chat',
      stream: false,
      estimate: ZERO_USAGE,
      t0: performance.now(),
      at: 7,
      settled: false,
    }
    const error = new GatewayError('VALIDATION_FAILED', 'bad')
    settle(f.deps, refused, outcomeFor(ZERO_USAGE, { kind: 'refused', error }, NOTHING_DELIVERED, null))
    await f.done()
    expect(leases).toEqual([undefined])
    const r = decodeRecord(f.rescued[0]!)!
    expect([r.requestId, r.status, r.errorCode, r.cost, r.usageSource]).toEqual(['req_3', 422, 'VALIDATION_FAILED', '0', 'none'])
  })
})
