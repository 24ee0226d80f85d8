// A payment event becomes a top-up event: cents become micro-USD exactly.
import { describe, expect, test } from 'bun:test'
import { topupEvent } from '../../../src/console/webhooks/service.ts'

describe('payment events → top-up events', () => {
  test('cents become micro-USD; a non-integer amount can never match', () => {
    const paid = (amountCents: number) =>
      topupEvent('stripe', {
        id: 'e',
        type: 't',
        action: { kind: 'paid', transactionId: 'x', sessionId: 's', amountCents, currency: 'usd' },
      }).action
    expect(paid(2550)).toMatchObject({ paidMicros: 25_500_000n })
    expect(paid(10.5)).toMatchObject({ paidMicros: -1n })
    expect(paid(Number.NaN)).toMatchObject({ paidMicros: -1n })
  })
})
