// Wallet account model (docs/console.md "Wallet": at least { balance, reserved, currency: "USD" }, USD numbers).
import { t } from 'elysia'

export const Account = t.Object({
  balance: t.Number({ description: 'USD; live, including charges settled but not yet in the ledger' }),
  reserved: t.Number({ description: 'USD held by calls in flight' }),
  available: t.Number({ description: 'balance − reserved: what new calls can spend' }),
  currency: t.Literal('USD'),
  spentThisMonth: t.Number({ description: 'USD of usage since the 1st of this month (UTC), from the ledger' }),
  pendingTopups: t.Object({ count: t.Integer(), amount: t.Number() }),
  topup: t.Object({
    min: t.Number({ description: 'Smallest top-up, USD' }),
    max: t.Number({ description: 'Largest top-up, USD' }),
    providers: t.Array(t.String(), { description: 'Payment providers configured here' }),
  }),
})
export type Account = typeof Account.static
