// What the admin API does (README "Admin API"): users, credit adjustments, keys, refunds,
// disable/enable, catalog reload, revocation. Refusals are GatewayErrors, rendered by the
// console error envelope (http/console-error.ts); money leaves as USD numbers.
import { retryingTransaction } from '../db/conflict-retry.ts'
import { eq } from 'drizzle-orm'
import { issueKey } from '../auth/issue-key.ts'
import { checkKeySettings } from '../auth/key-settings.ts'
import { operatorLimitsAfter } from '../auth/operator-limits.ts'
import { updateKey } from '../auth/update-key.ts'
import { createUser } from '../billing/accounts.ts'
import { refund, refundCall } from '../billing/refunds.ts'
import { readCatalogFile, upsertCatalog } from '../catalog/file.ts'
import { GatewayError } from '../core/errors.ts'
import { apiKeys, users } from '../db/schema/index.ts'
import { parseIsoDateTime } from '../lib/dates.ts'
import { emailIssue, normalizeEmail } from '../lib/email.ts'
import { formatUsd, usdToMicros } from '../lib/money.ts'
import { startupFailure } from '../lib/startup-error.ts'
import { applyCredit, type Credit } from './credits.ts'
import { clearSwitches } from './gateways/switches.ts'
import type { AdminDeps } from './deps.ts'
import { keyViews, listKeys, setDisabled, userExists } from './directory.ts'
import { keepAnAdmin } from './roles.ts'
import type { CreditAdjustment, KeyPatch, NewKey, NewUser, RefundRequest } from './model.ts'

const MAX_ADJUST_USD = 10_000

const usd = (micros: bigint) => Number(formatUsd(micros))

async function existingUser(deps: Pick<AdminDeps, 'db'>, id: string): Promise<{ id: string }> {
  const [user] = await deps.db.select({ id: users.id }).from(users).where(eq(users.id, id))
  if (!user) throw new GatewayError('NOT_FOUND', 'No such user.')
  return user
}

export async function createAccount(deps: Pick<AdminDeps, 'db'>, input: typeof NewUser.static) {
  const email = normalizeEmail(input.email)
  const issue = emailIssue(email)
  if (issue) throw new GatewayError('VALIDATION_FAILED', `email: ${issue}`, { param: 'email' })
  const passwordHash = input.password ? await Bun.password.hash(input.password, 'argon2id') : null
  const [exists] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email))
  if (exists) throw new GatewayError('CONFLICT', 'A user with this email already exists.')
  return createUser(deps.db, email, passwordHash)
}

/** A signed adjustment; with an Idempotency-Key, applied once per user and key (credits.ts). */
export async function adjustCredits(
  deps: Pick<AdminDeps, 'db' | 'store'>,
  userId: string,
  input: typeof CreditAdjustment.static,
  idempotencyKey: string | null,
  audit?: Credit['audit'],
) {
  const micros = usdToMicros(input.amount)
  if (micros === undefined || micros === 0n || input.amount > MAX_ADJUST_USD || input.amount < -MAX_ADJUST_USD)
    throw new GatewayError('BAD_REQUEST', `amount must be a non-zero USD amount within ±${MAX_ADJUST_USD} with at most 6 decimals.`)
  const user = await existingUser(deps, userId)
  return applyCredit(deps, { userId: user.id, amountMicros: micros, note: input.note, key: idempotencyKey || undefined, audit })
}

/** A date that does not parse is issueKey's 400; one that parses must lie ahead (a key dead on arrival is a mistake). */
function checkExpiry(deps: Pick<AdminDeps, 'now'>, expiresAt: string | null | undefined): void {
  const expires = expiresAt ? parseIsoDateTime(expiresAt) : undefined
  if (expires && expires.getTime() <= deps.now())
    throw new GatewayError('VALIDATION_FAILED', 'expiresAt: must be in the future.', { param: 'expiresAt' })
}

const slugs = (deps: Pick<AdminDeps, 'catalog'>) => deps.catalog.all().map((m) => m.id)

export async function createKey(deps: Pick<AdminDeps, 'db' | 'now' | 'catalog'>, input: typeof NewKey.static) {
  await existingUser(deps, input.userId)
  checkExpiry(deps, input.expiresAt)
  const settings = checkKeySettings(input, slugs(deps))
  const { id, key } = await issueKey(deps, { ...input, ...settings, byOperator: true })
  return { id, key }
}

/**
 * PATCH /api/admin/keys/:id: the key as the admin listing shows it after the change. The limits
 * it sets become the operator's, which the owner may only tighten (auth/operator-limits.ts).
 */
export async function changeKey(
  deps: Pick<AdminDeps, 'db' | 'now' | 'catalog' | 'auth' | 'config'>,
  keyId: string,
  input: typeof KeyPatch.static,
  audit?: InChange,
) {
  checkExpiry(deps, input.expiresAt)
  const settings = checkKeySettings(input, slugs(deps))
  const patch = { ...input, ...settings }
  const row = await deps.db.transaction(async (tx) => {
    const [before] = await tx.select({ limits: apiKeys.operatorLimits }).from(apiKeys).where(eq(apiKeys.id, keyId)).for('update')
    if (!before) return undefined
    const changed = await updateKey(tx, keyId, undefined, patch)
    if (!changed) return undefined
    const operatorLimits = operatorLimitsAfter(before.limits, patch, changed)
    await tx.update(apiKeys).set({ operatorLimits }).where(eq(apiKeys.id, keyId))
    await audit?.(tx)
    return { ...changed, operatorLimits }
  })
  if (!row) throw new GatewayError('NOT_FOUND', 'No such key.')
  deps.auth.invalidate(row.id)
  const [view] = await keyViews(deps, [row])
  return view!
}

export async function refundTransaction(deps: Pick<AdminDeps, 'db' | 'store'>, input: typeof RefundRequest.static) {
  if ((input.transactionId === undefined) === (input.requestId === undefined))
    throw new GatewayError('BAD_REQUEST', 'Name exactly one of transactionId and requestId.')
  const result =
    input.requestId === undefined
      ? await refund(deps, input.transactionId!, input.amount, input.note)
      : await refundCall(deps, input.requestId, input.amount, input.note)
  return {
    id: result.id,
    refundOf: result.refundOf,
    requestId: input.requestId ?? null,
    amount: usd(result.amount),
    balance: usd(result.balance),
  }
}

export async function userKeys(deps: Pick<AdminDeps, 'db' | 'now' | 'config'>, userId: string) {
  if (!(await userExists(deps.db, userId))) throw new GatewayError('NOT_FOUND', 'No such user.')
  return { items: await keyViews(deps, await listKeys(deps.db, userId)) }
}

type Tx = Parameters<Parameters<AdminDeps['db']['transaction']>[0]>[0]
/** Runs in a change's transaction: the audit row commits with the change (changes.ts). */
export type InChange = (tx: Tx) => Promise<void>

export async function setUserDisabled(deps: Pick<AdminDeps, 'db' | 'auth'>, userId: string, disabled: boolean, audit?: InChange) {
  const found = await retryingTransaction(deps.db, async (tx) => {
    if (disabled) await keepAnAdmin(tx, userId)
    if (!(await setDisabled(tx, userId, disabled))) return false
    await audit?.(tx)
    return true
  })
  if (!found) throw new GatewayError('NOT_FOUND', 'No such user.')
  // At once on this instance; other instances drop cached keys within KEY_CACHE_TTL_MS.
  deps.auth.invalidateUser(userId)
  return { id: userId, disabled }
}

/** Re-reads CATALOG_FILE, upserts it and reloads the running catalog; a bad file changes nothing. */
export async function reloadCatalog(deps: Pick<AdminDeps, 'db' | 'catalog' | 'config' | 'log'>) {
  const path = deps.config.catalogFile
  if (!path) throw new GatewayError('CONFLICT', 'CATALOG_FILE is not set on this instance: there is no file to reload.')
  let file: Awaited<ReturnType<typeof readCatalogFile>>
  try {
    file = await readCatalogFile(path)
  } catch (e) {
    throw new GatewayError('BAD_REQUEST', startupFailure('catalog', e, { file: path }).message)
  }
  await upsertCatalog(deps.db, file)
  // A reload returns the catalog to its file: routes switched off at run time are on again.
  await clearSwitches(deps.db)
  await deps.catalog.refresh()
  const unresolved = deps.catalog.unresolvedSecrets()
  for (const g of unresolved)
    deps.log.warn('catalog: a gateway key reference names an unset variable; calls through it carry no key', {
      gateway: g.id,
      apiKey: g.ref,
    })
  const authProblems = deps.catalog.authProblems()
  for (const problem of authProblems) deps.log.warn(`catalog: ${problem}; calls through it fail over`)
  return {
    gateways: file.gateways.length,
    models: file.models.length,
    unsetKeyVariables: [...new Set(unresolved.map((g) => g.ref.slice(4)))],
    authProblems: [...authProblems],
  }
}

export async function revokeKey(deps: Pick<AdminDeps, 'db' | 'auth'>, keyId: string, audit?: InChange) {
  const row = await deps.db.transaction(async (tx) => {
    const [revoked] = await tx.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId)).returning({ id: apiKeys.id })
    if (revoked) await audit?.(tx)
    return revoked
  })
  if (!row) throw new GatewayError('NOT_FOUND', 'No such key.')
  deps.auth.invalidate(row.id)
  return { id: row.id, revoked: true }
}
