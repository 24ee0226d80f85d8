// Auto top-up models (docs/console.md "Auto top-up"): the settings a PUT takes (threshold
// 0..10,000 USD, a provider name) and the view a GET answers.
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { AutoTopupSettings, AutoTopupView } from '../../../src/console/wallet/auto-topup-model.ts'

describe('AutoTopupSettings', () => {
  const s = { enabled: true, threshold: 5, amount: 20, provider: 'sandbox' }
  test('all four members are required; threshold within 0..10,000; a provider name of 1..50', () => {
    expect(Value.Check(AutoTopupSettings, s)).toBe(true)
    expect(Value.Check(AutoTopupSettings, { ...s, threshold: 0 })).toBe(true)
    expect(Value.Check(AutoTopupSettings, { ...s, threshold: -0.01 })).toBe(false)
    expect(Value.Check(AutoTopupSettings, { ...s, threshold: 10_000.01 })).toBe(false)
    expect(Value.Check(AutoTopupSettings, { ...s, provider: '' })).toBe(false)
    const { enabled: _, ...noEnabled } = s
    expect(Value.Check(AutoTopupSettings, noEnabled)).toBe(false)
  })
})

describe('AutoTopupView', () => {
  test('unset settings are null; the state flags are booleans', () => {
    const off = {
      enabled: false,
      threshold: null,
      amount: null,
      provider: null,
      paymentMethodSaved: false,
      inFlight: false,
      lowBalance: false,
      lastError: null,
      setupUrl: null,
    }
    expect(Value.Check(AutoTopupView, off)).toBe(true)
    expect(Value.Check(AutoTopupView, { ...off, inFlight: null })).toBe(false)
  })
})
