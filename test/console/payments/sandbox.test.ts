// The sandbox payment provider's webhook signature: fresh, by the secret, over the exact body.
import { describe, expect, test } from 'bun:test'
import { sandboxProvider, signSandboxEvent } from '../../../src/console/payments/sandbox.ts'

describe('sandbox signature', () => {
  const provider = sandboxProvider({ secret: 's3cret' })
  const body = JSON.stringify({ id: 'sbx_evt_1', type: 'payment.succeeded', transactionId: 'txn_1', amountCents: 500, currency: 'usd' })
  const verify = (sig: string, raw = body) => provider.verifyWebhook(raw, new Headers({ 'x-sandbox-signature': sig }))

  test('a fresh signature by the secret verifies', async () => {
    expect(await verify(signSandboxEvent('s3cret', body))).toEqual({
      id: 'sbx_evt_1',
      type: 'payment.succeeded',
      action: { kind: 'paid', transactionId: 'txn_1', sessionId: 'sbx_txn_1', amountCents: 500, currency: 'usd' },
    })
  })

  test.each([
    ['another secret', () => signSandboxEvent('other', body)],
    ['stale', () => signSandboxEvent('s3cret', body, Math.floor(Date.now() / 1000) - 301)],
    ['from the future', () => signSandboxEvent('s3cret', body, Math.floor(Date.now() / 1000) + 301)],
    ['missing', () => ''],
    ['v1 truncated', () => signSandboxEvent('s3cret', body).slice(0, -2)],
  ])('refuses %s', async (_, sig) => {
    await expect(verify(sig())).rejects.toThrow()
  })

  test('refuses a body other than the signed one', async () => {
    await expect(verify(signSandboxEvent('s3cret', body), body.replace('500', '50000'))).rejects.toThrow('bad signature')
  })
})
