// A live stream's lease (docs/drain.md "Reservations are leases"): renewed every third of the stream lease,
// the first renewal only once the admission's lease has two thirds of it left.
import { describe, expect, test } from 'bun:test'
import type { Call } from '../../src/inference/admission.ts'
import { holdLease } from '../../src/billing/lease.ts'
import { createLogger } from '../../src/lib/log.ts'

function harness(leaseLeftMs: number) {
  const renewals: number[] = []
  const started = Date.now()
  const deps = {
    store: {
      renewLease: async (_userId: string, _id: string, deadlineMs: number) => {
        renewals.push(deadlineMs - started)
        return true
      },
    },
    log: createLogger('error'),
    now: () => Date.now(),
  }
  const call = {
    principal: { userId: 'u', keyId: 'k' },
    requestId: 'req_1',
    settled: false,
    leaseDeadlineMs: started + leaseLeftMs,
  } as unknown as Call
  return { deps, call, renewals, started }
}

describe('holdLease', () => {
  test('an admission lease as long as the stream lease: no renewal at the start, the first a third of it later, then every third', async () => {
    const { deps, call, renewals } = harness(300)
    const stop = holdLease(deps, call, 300)
    await Bun.sleep(50)
    expect(renewals).toEqual([])
    await Bun.sleep(400)
    stop()
    // Renewed at ≈100 ms and then every ≈100 ms, each to now + 300 ms.
    expect(renewals.length).toBeGreaterThanOrEqual(2)
    expect(renewals.length).toBeLessThanOrEqual(5)
    expect(renewals[0]!).toBeGreaterThanOrEqual(380)
    const count = renewals.length
    await Bun.sleep(250)
    expect(renewals.length).toBe(count)
  })

  test('an admission lease with less than two thirds of the stream lease left: renewed at once', async () => {
    const { deps, call, renewals } = harness(150)
    const stop = holdLease(deps, call, 300)
    await Bun.sleep(10)
    expect(renewals.length).toBe(1)
    expect(renewals[0]!).toBeGreaterThanOrEqual(300)
    stop()
  })

  test('stopped before the first renewal: none ever', async () => {
    const { deps, call, renewals } = harness(300)
    holdLease(deps, call, 300)()
    await Bun.sleep(250)
    expect(renewals).toEqual([])
  })
})
