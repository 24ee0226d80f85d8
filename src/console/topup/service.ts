// POST /api/wallet/topup: policy (docs/console.md "Top-ups": outside it → 400 BAD_REQUEST), provider (not configured
// → 402 PAYMENT_REQUIRED), then a pending ledger entry and the provider's checkout. Credit comes
// only from the provider's verified webhook (webhooks/).
import { attachCheckout, createPendingTopup, failTopup } from '../../billing/topups.ts'
import type { Config } from '../../config.ts'
import { GatewayError } from '../../core/errors.ts'
import { formatUsd, usdToMicros } from '../../lib/money.ts'
import type { ConsoleDeps } from '../deps.ts'
import type { TopupRequest } from './model.ts'

/** docs/api.md "Top-ups": the technical maximum per transaction, whatever the policy says. */
export const TECHNICAL_MAX_MICROS = 10_000_000_000n
const CENT = 10_000n

export function topupBounds(config: Pick<Config, 'topupMinUsd' | 'topupMaxUsd'>): { min: bigint; max: bigint } {
  const max = usdToMicros(config.topupMaxUsd) ?? TECHNICAL_MAX_MICROS
  return { min: usdToMicros(config.topupMinUsd) ?? CENT, max: max < TECHNICAL_MAX_MICROS ? max : TECHNICAL_MAX_MICROS }
}

/** The amount in micro-USD when it is whole cents within the policy; undefined otherwise. */
export function policyAmount(amountUsd: number, bounds: { min: bigint; max: bigint }): bigint | undefined {
  const micros = usdToMicros(amountUsd)
  if (micros === undefined || micros % CENT !== 0n || micros < bounds.min || micros > bounds.max) return undefined
  return micros
}

export async function startTopup(
  deps: Pick<ConsoleDeps, 'db' | 'log' | 'config' | 'payments'>,
  user: { id: string; email: string },
  req: TopupRequest,
  origin: string,
) {
  const bounds = topupBounds(deps.config)
  const micros = policyAmount(req.amount, bounds)
  if (micros === undefined)
    throw new GatewayError(
      'BAD_REQUEST',
      `amount must be between ${formatUsd(bounds.min).slice(0, -6)} and ${formatUsd(bounds.max).slice(0, -6)} USD, in whole cents.`,
    )
  const provider = deps.payments.get(req.provider)
  if (!provider)
    throw new GatewayError(
      'PAYMENT_REQUIRED',
      `Payment provider "${req.provider}" is not configured here; use one of: ${[...deps.payments.keys()].join(', ') || 'none'}.`,
    )
  const transactionId = await createPendingTopup(deps.db, user.id, micros, provider.name)
  let checkout
  try {
    checkout = await provider.createCheckout({
      transactionId,
      amountCents: Number(micros / CENT),
      email: user.email,
      returnUrl: `${origin}/console/topup/return`,
      origin,
    })
  } catch (cause) {
    await failTopup(deps.db, transactionId, 'the checkout could not be opened')
    deps.log.warn('checkout failed', { provider: provider.name, transactionId, err: String(cause) })
    throw new GatewayError('UPSTREAM_ERROR', 'The payment provider could not open a checkout; try again.', { cause })
  }
  await attachCheckout(deps.db, transactionId, checkout.sessionId)
  return {
    transactionId,
    checkoutUrl: checkout.url,
    status: 'pending' as const,
    amount: Number(formatUsd(micros)),
    currency: 'USD' as const,
    provider: provider.name,
  }
}
