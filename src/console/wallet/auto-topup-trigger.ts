// What follows a settlement for accounts with auto top-up (docs/console.md "Auto top-up"): when
// the live balance is under the user's threshold, the low-balance notice (once per crossing) and
// one top-up (never two in flight, across instances: billing/auto-topup.ts claims it in
// Postgres). The charge is the provider's; its answer arrives through the same verified webhook
// path as a manual top-up's (a provider that answers at once hands its signed event over here).
// Each user's settings are cached briefly, so an account without auto top-up costs no query.
import { accountView } from '../../billing/accounts.ts'
import { attachCheckout, failTopup } from '../../billing/topups.ts'
import { type AutoTopupRow, claimTopup, markLow, readAutoTopup } from '../../billing/auto-topup.ts'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import type { Logger } from '../../lib/log.ts'
import { TtlLru } from '../../lib/lru.ts'
import type { Store } from '../../store/types.ts'
import { ChargeDeclined, type PaymentProvider } from '../payments/provider.ts'
import { receiveWebhook } from '../webhooks/service.ts'
import { notifyLowBalance } from './low-balance.ts'

const SETTINGS_TTL_MS = 2_000
const CENT = 10_000n

export interface AutoTopupDeps {
  db: Db
  store: Store
  log: Logger
  payments: ReadonlyMap<string, PaymentProvider>
  config: Pick<Config, 'lowBalanceWebhook'>
  now: () => number
}

export class AutoTopupTrigger {
  private readonly settings = new TtlLru<string, AutoTopupRow | null>(100_000)

  constructor(private readonly deps: AutoTopupDeps) {}

  /** The user's settings changed on this instance: read them again on the next settlement. */
  invalidate(userId: string): void {
    this.settings.delete(userId)
  }

  /** After a settlement that charged `userId`: the checks above, off the call's path. */
  async afterSettle(userId: string): Promise<void> {
    const row = await this.settingsOf(userId)
    if (!row || (row.lowSince !== null && (!row.enabled || row.inFlight !== null))) return
    const balance = async (db: Pick<Db, 'select'>) => (await accountView(db, this.deps.store, userId)).balance
    const now = await balance(this.deps.db)
    if (now >= row.thresholdMicros) return
    this.invalidate(userId)
    if (row.lowSince === null && (await markLow(this.deps.db, userId))) await this.notify(row, now)
    if (!row.enabled || !row.paymentMethod || row.inFlight !== null) return
    const claimed = await claimTopup(this.deps.db, userId, balance)
    if (claimed) await this.charge(claimed)
  }

  private async settingsOf(userId: string): Promise<AutoTopupRow | null> {
    const cached = this.settings.get(userId)
    if (cached !== undefined) return cached
    const row = (await readAutoTopup(this.deps.db, userId)) ?? null
    this.settings.set(userId, row, SETTINGS_TTL_MS)
    return row
  }

  private async notify(row: AutoTopupRow, balanceMicros: bigint): Promise<void> {
    const hook = this.deps.config.lowBalanceWebhook
    if (!hook) return
    await notifyLowBalance(
      hook,
      this.deps.log,
      { userId: row.userId, balanceMicros, thresholdMicros: row.thresholdMicros },
      this.deps.now(),
    )
  }

  private async charge(c: { transactionId: string; amountMicros: bigint; provider: string; paymentMethod: string }): Promise<void> {
    const provider = this.deps.payments.get(c.provider)
    try {
      if (!provider) throw new ChargeDeclined(`payment provider ${c.provider} is not configured`)
      const charged = await provider.chargeSaved({
        transactionId: c.transactionId,
        amountCents: Number(c.amountMicros / CENT),
        paymentMethod: c.paymentMethod,
      })
      await attachCheckout(this.deps.db, c.transactionId, charged.sessionId)
      if (charged.delivery) await receiveWebhook(this.deps, provider!, charged.delivery.body, charged.delivery.headers)
    } catch (err) {
      // Declined (or the provider unreachable): the top-up fails and auto top-up turns off with the reason.
      const reason = err instanceof ChargeDeclined ? err.message : 'the payment provider could not be reached'
      this.deps.log.warn('auto top-up charge failed', { transactionId: c.transactionId, err: String(err) })
      await failTopup(this.deps.db, c.transactionId, reason)
    }
  }
}
