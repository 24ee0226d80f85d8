// Top-up models (docs/console.md "Top-ups"): the request leaves the amount policy to the service
// (so an out-of-policy amount is a 400 with the policy, not a schema failure); the answer is a
// pending USD top-up with its checkout URL.
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { TopupRequest, TopupStarted } from '../../../src/console/topup/model.ts'

describe('TopupRequest', () => {
  test('any number passes the schema; the provider is a name of 1..50 characters', () => {
    expect(Value.Check(TopupRequest, { amount: 0.001, provider: 'sandbox' })).toBe(true)
    expect(Value.Check(TopupRequest, { amount: 1e9, provider: 'stripe' })).toBe(true)
    expect(Value.Check(TopupRequest, { amount: 5, provider: '' })).toBe(false)
    expect(Value.Check(TopupRequest, { amount: 5, provider: 'p'.repeat(51) })).toBe(false)
    expect(Value.Check(TopupRequest, { provider: 'sandbox' })).toBe(false)
  })
})

describe('TopupStarted', () => {
  test('a started top-up is pending and in USD', () => {
    const started = { transactionId: 'txn_1', checkoutUrl: 'https://x', status: 'pending', amount: 5, currency: 'USD', provider: 'sandbox' }
    expect(Value.Check(TopupStarted, started)).toBe(true)
    expect(Value.Check(TopupStarted, { ...started, status: 'completed' })).toBe(false)
    expect(Value.Check(TopupStarted, { ...started, currency: 'EUR' })).toBe(false)
  })
})
