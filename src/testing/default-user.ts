// A kit instance's default user and key (docs/testing.md "What startTollgate returns"), made by
// the admin API's own changes (admin/changes.ts) under the admin token: the rows and audit entries
// POST /api/admin/users, /users/:id/credits and /keys make, called in-process without the three
// requests through the app (10–15 ms of a start, cold or warm: docs/testing.md "Start time").
// Only for the default key: a test's `keyOptions` go through the admin API and its validation.
import { auditedCreateKey, auditedCreateUser, auditedCredit } from '../admin/changes.ts'
import { GatewayError } from '../core/errors.ts'
import type { AppDeps } from '../runtime.ts'
import { type TestKey, type TestUser, TollgateAdminError } from './admin.ts'

const ADMIN_TOKEN = { kind: 'token' } as const

/** The user with `credit` USD (none when 0) and one key with the default settings; a refusal throws TollgateAdminError. */
export async function createDefaultUser(deps: AppDeps, email: string, credit: number): Promise<TestUser & { key: TestKey }> {
  try {
    const user = await auditedCreateUser(deps, ADMIN_TOKEN, { email })
    if (credit) await auditedCredit(deps, ADMIN_TOKEN, user.id, { amount: credit }, null)
    const { id, key } = await auditedCreateKey(deps, ADMIN_TOKEN, { userId: user.id })
    return { id: user.id, email: user.email, key: { id, key } }
  } catch (e) {
    if (e instanceof GatewayError) throw new TollgateAdminError(e.status, e.message)
    throw e
  }
}
