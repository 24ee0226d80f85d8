// The balance rule of admission (src/store/balance-cover.ts; docs/operations.md "Overdraft").
import { describe, expect, test } from 'bun:test'
import { balanceCovers } from '../../src/store/balance-cover.ts'

describe('balance cover', () => {
  test.each([
    // balance, reserved in flight, this call's reservation, admitted
    [100n, 0n, 100n, true],
    [99n, 0n, 100n, false],
    [300n, 100n, 100n, true],
    [299n, 100n, 100n, false],
    [1_000n, 400n, 100n, true],
    [1_000n, 500n, 100n, false],
    [0n, 0n, 0n, true],
    [-5n, 0n, 0n, false],
  ])('balance %p with %p in flight, a call reserving %p: %p', (balance, reserved, reserve, admitted) => {
    expect(balanceCovers(balance, reserved, reserve)).toBe(admitted)
  })

  test('calls billed up to twice their reservation, admitted and settled in any order, overdraw by less than one reservation', () => {
    // A random walk of admissions and settlements against the rule: the balance, once every call
    // is settled, is never below minus the largest reservation.
    for (let run = 0; run < 200; run++) {
      let balance = BigInt(1 + Math.floor(Math.random() * 2_000))
      let reserved = 0n
      const inFlight: bigint[] = []
      let largest = 0n
      for (let step = 0; step < 300; step++) {
        if (inFlight.length > 0 && Math.random() < 0.4) {
          const r = inFlight.splice(Math.floor(Math.random() * inFlight.length), 1)[0]!
          reserved -= r
          balance -= r + BigInt(Math.floor(Math.random() * (Number(r) + 1)))
        } else {
          const r = BigInt(1 + Math.floor(Math.random() * 200))
          if (!balanceCovers(balance, reserved, r)) continue
          reserved += r
          inFlight.push(r)
          if (r > largest) largest = r
        }
      }
      for (const r of inFlight) balance -= 2n * r
      expect(balance).toBeGreaterThanOrEqual(-largest)
    }
  })
})
