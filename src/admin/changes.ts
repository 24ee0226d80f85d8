// Every change the admin API makes, each followed by its audit row (audit.ts): who, what, the
// state before and after. The change itself is service.ts's; this file only names it.
import { GatewayError } from '../core/errors.ts'
import { formatUsd } from '../lib/money.ts'
import { type Actor, recordAudit } from './audit.ts'
import type { AdminDeps } from './deps.ts'
import type { CreditAdjustment, KeyPatch, NewKey, NewUser, RefundRequest } from './model.ts'
import { type Role, setRole } from './roles.ts'
import {
  adjustCredits,
  changeKey,
  createAccount,
  createKey,
  refundTransaction,
  reloadCatalog,
  revokeKey,
  setUserDisabled,
} from './service.ts'

type Deps = Pick<AdminDeps, 'db' | 'store' | 'auth' | 'now' | 'catalog' | 'config' | 'log'>

const usd = (micros: bigint) => Number(formatUsd(micros))

export async function auditedCreateUser(deps: Deps, actor: Actor, body: typeof NewUser.static) {
  const user = await createAccount(deps, body)
  await recordAudit(deps.db, actor, { action: 'user.create', target: user.id, after: { email: user.email } })
  return user
}

/** The audit row is written in the movement's own transaction; a replay moves nothing and adds none. */
export function auditedCredit(deps: Deps, actor: Actor, userId: string, body: typeof CreditAdjustment.static, key: string | null) {
  return adjustCredits(deps, userId, body, key, (tx, before, after) =>
    recordAudit(tx, actor, {
      action: 'user.credit',
      target: userId,
      before: { balance: usd(before) },
      after: { balance: usd(after), amount: body.amount },
      note: body.note,
    }),
  )
}

export async function auditedCreateKey(deps: Deps, actor: Actor, body: typeof NewKey.static) {
  const key = await createKey(deps, body)
  const { userId, name, limit, rpm, expiresAt, serviceMode } = body
  await recordAudit(deps.db, actor, { action: 'key.create', target: key.id, after: { userId, name, limit, rpm, expiresAt, serviceMode } })
  return key
}

/** The audit row names the members the patch set; it commits with the change. */
export async function auditedChangeKey(deps: Deps, actor: Actor, keyId: string, body: typeof KeyPatch.static) {
  return changeKey(deps, keyId, body, (tx) => recordAudit(tx, actor, { action: 'key.update', target: keyId, after: body }))
}

export async function auditedRevoke(deps: Deps, actor: Actor, keyId: string) {
  return revokeKey(deps, keyId, (tx) => recordAudit(tx, actor, { action: 'key.revoke', target: keyId, after: { revoked: true } }))
}

export async function auditedRefund(deps: Deps, actor: Actor, body: typeof RefundRequest.static) {
  const answer = await refundTransaction(deps, body)
  await recordAudit(deps.db, actor, {
    action: 'topup.refund',
    target: answer.refundOf,
    after: { refund: answer.id, requestId: answer.requestId, amount: answer.amount, balance: answer.balance },
    note: body.note,
  })
  return answer
}

export async function auditedDisable(deps: Deps, actor: Actor, userId: string, disabled: boolean) {
  if (actor.kind === 'user' && actor.id === userId && disabled)
    throw new GatewayError('CONFLICT', 'An admin cannot disable their own account; ask another admin or use the admin token.')
  return setUserDisabled(deps, userId, disabled, (tx) =>
    recordAudit(tx, actor, { action: disabled ? 'user.disable' : 'user.enable', target: userId, after: { disabled } }),
  )
}

export async function auditedRole(deps: Deps, actor: Actor, userId: string, role: Role) {
  if (actor.kind === 'user' && actor.id === userId && role !== 'admin')
    throw new GatewayError('CONFLICT', 'An admin cannot take their own admin role; ask another admin or use the admin token.')
  const change = await setRole(deps.db, userId, role, (tx, before) =>
    recordAudit(tx, actor, { action: 'user.role', target: userId, before: { role: before }, after: { role } }),
  )
  if (!change) throw new GatewayError('NOT_FOUND', 'No such user.')
  return { id: userId, role: change.after }
}

export async function auditedReload(deps: Deps, actor: Actor) {
  const answer = await reloadCatalog(deps)
  await recordAudit(deps.db, actor, { action: 'catalog.reload', after: answer })
  return answer
}
