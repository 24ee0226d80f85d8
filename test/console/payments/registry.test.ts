// The configured payment providers (docs/console.md "Top-ups"): each one only when its settings
// are present, under the name the API uses; the sandbox provider verifies events with its secret.
import { describe, expect, test } from 'bun:test'
import { signSandboxEvent, SANDBOX_SIGNATURE, sandboxEvent } from '../../../src/console/payments/sandbox.ts'
import { paymentProviders } from '../../../src/console/payments/registry.ts'

const STRIPE = { secretKey: 'sk_test_x', webhookSecret: 'whsec_x', apiBase: 'http://127.0.0.1:9' }

describe('paymentProviders', () => {
  test('none configured, none offered', () => {
    expect(paymentProviders({ stripe: undefined, sandboxPayments: undefined }).size).toBe(0)
  })

  test('each configured provider under its own name', () => {
    const both = paymentProviders({ stripe: STRIPE, sandboxPayments: { secret: 's1' } })
    expect([...both.keys()].sort()).toEqual(['sandbox', 'stripe'])
    for (const [name, p] of both) expect(p.name).toBe(name)
    expect([...paymentProviders({ stripe: undefined, sandboxPayments: { secret: 's1' } }).keys()]).toEqual(['sandbox'])
    expect([...paymentProviders({ stripe: STRIPE, sandboxPayments: undefined }).keys()]).toEqual(['stripe'])
  })

  test("the sandbox provider is built with the configured secret: another secret's signature is refused", async () => {
    const sandbox = paymentProviders({ stripe: undefined, sandboxPayments: { secret: 'right-secret' } }).get('sandbox')!
    const body = JSON.stringify(sandboxEvent('payment.succeeded', 'txn_1', 500))
    const ok = await sandbox.verifyWebhook(body, new Headers({ [SANDBOX_SIGNATURE]: signSandboxEvent('right-secret', body) }))
    expect(ok.action).toMatchObject({ kind: 'paid', transactionId: 'txn_1', amountCents: 500 })
    await expect(sandbox.verifyWebhook(body, new Headers({ [SANDBOX_SIGNATURE]: signSandboxEvent('wrong-secret', body) }))).rejects.toThrow(
      'bad signature',
    )
  })
})
