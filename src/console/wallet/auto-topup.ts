// The user's auto top-up settings (docs/console.md "Auto top-up"): read, and set as a whole. The
// amount follows the top-up policy; the provider must be configured here (402 otherwise). A
// provider without a saved payment method answers a setupUrl (Stripe: a Checkout in setup mode;
// the sandbox saves one at once). A new provider forgets the old one's payment method; saving
// the settings clears the reason a failed charge left.
import { sql } from 'drizzle-orm'
import { readAutoTopup, saveMethod } from '../../billing/auto-topup.ts'
import { GatewayError } from '../../core/errors.ts'
import { autoTopups } from '../../db/schema/index.ts'
import { formatUsd, usdToMicros } from '../../lib/money.ts'
import type { ConsoleDeps } from '../deps.ts'
import { policyAmount, topupBounds } from '../topup/service.ts'
import type { AutoTopupSettings, AutoTopupView } from './auto-topup-model.ts'

type Deps = Pick<ConsoleDeps, 'db' | 'config' | 'payments' | 'autoTopup'>

const usd = (micros: bigint) => Number(formatUsd(micros))
const invalid = (field: string, message: string) => new GatewayError('VALIDATION_FAILED', `${field}: ${message}`, { param: field })

export async function autoTopupView(deps: Pick<ConsoleDeps, 'db'>, userId: string, setupUrl: string | null = null): Promise<AutoTopupView> {
  const row = await readAutoTopup(deps.db, userId)
  return {
    enabled: row?.enabled ?? false,
    threshold: row ? usd(row.thresholdMicros) : null,
    amount: row ? usd(row.amountMicros) : null,
    provider: row?.provider ?? null,
    paymentMethodSaved: Boolean(row?.paymentMethod),
    inFlight: Boolean(row?.inFlight),
    lowBalance: Boolean(row?.lowSince),
    lastError: row?.lastError ?? null,
    setupUrl,
  }
}

function checked(deps: Deps, s: AutoTopupSettings) {
  const bounds = topupBounds(deps.config)
  const amountMicros = policyAmount(s.amount, bounds)
  if (amountMicros === undefined) throw invalid('amount', `must be between ${usd(bounds.min)} and ${usd(bounds.max)} USD, in whole cents.`)
  const thresholdMicros = usdToMicros(s.threshold)
  if (thresholdMicros === undefined || thresholdMicros < 0n) throw invalid('threshold', 'must be a USD amount with at most 6 decimals.')
  const provider = deps.payments.get(s.provider)
  if (!provider)
    throw new GatewayError(
      'PAYMENT_REQUIRED',
      `Payment provider "${s.provider}" is not configured here; use one of: ${[...deps.payments.keys()].join(', ') || 'none'}.`,
    )
  return { amountMicros, thresholdMicros, provider }
}

export async function setAutoTopup(deps: Deps, user: { id: string; email: string }, s: AutoTopupSettings, returnUrl: string) {
  const { amountMicros, thresholdMicros, provider } = checked(deps, s)
  const values = { enabled: s.enabled, thresholdMicros, amountMicros, provider: provider.name, lastError: null, updatedAt: new Date() }
  const [row] = await deps.db
    .insert(autoTopups)
    .values({ userId: user.id, ...values })
    .onConflictDoUpdate({
      target: autoTopups.userId,
      set: {
        ...values,
        paymentMethod: sql`case when ${autoTopups.provider} = ${provider.name} then ${autoTopups.paymentMethod} end`,
      },
    })
    .returning()
  deps.autoTopup?.invalidate(user.id)
  let setupUrl: string | null = null
  if (s.enabled && !row?.paymentMethod) {
    const setup = await provider.setupAutoCharge({ userId: user.id, email: user.email, returnUrl }).catch((cause) => {
      throw new GatewayError('UPSTREAM_ERROR', 'The payment provider could not open a setup page; try again.', { cause })
    })
    if ('url' in setup) setupUrl = setup.url
    else await saveMethod(deps.db, user.id, setup.paymentMethod)
  }
  return autoTopupView(deps, user.id, setupUrl)
}
