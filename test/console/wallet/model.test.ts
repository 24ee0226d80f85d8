// The wallet account model (docs/console.md "Wallet"): balance, reserved and available in USD,
// the month's spend, pending top-ups and the top-up policy, all required.
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { Account } from '../../../src/console/wallet/model.ts'

const account = {
  balance: 10,
  reserved: 1.5,
  available: 8.5,
  currency: 'USD',
  spentThisMonth: 2,
  pendingTopups: { count: 1, amount: 20 },
  topup: { min: 5, max: 10_000, providers: ['sandbox'] },
}

describe('Account', () => {
  test('every member is required; the currency is USD', () => {
    expect(Value.Check(Account, account)).toBe(true)
    for (const k of Object.keys(account)) {
      const { [k]: _, ...rest } = account as Record<string, unknown>
      expect(Value.Check(Account, rest)).toBe(false)
    }
    expect(Value.Check(Account, { ...account, currency: 'EUR' })).toBe(false)
    expect(Value.Check(Account, { ...account, pendingTopups: { count: 1.5, amount: 0 } })).toBe(false)
  })
})
