// The kit's default user (src/testing/default-user.ts): made by the admin API's changes called
// in-process, it leaves what the admin API's three calls leave for a user made through them —
// the same audit entries in the same order, credit and key — and a refusal is a
// TollgateAdminError with the API's status.
import { expect, test } from 'bun:test'
import { asc } from 'drizzle-orm'
import { adminAudit } from '../../src/db/schema/index.ts'
import { createDefaultUser } from '../../src/testing/default-user.ts'
import { startTollgate, TollgateAdminError, type Tollgate } from 'tollgate/testing'

/** The user's audit entries, oldest first, with the made key's id and the user's id replaced by names. */
async function trail(tg: Tollgate, user: { id: string; keyId: string }) {
  const rows = await tg.runtime.deps.db.select().from(adminAudit).orderBy(asc(adminAudit.at), asc(adminAudit.id))
  const name = (v: unknown) =>
    JSON.parse(
      JSON.stringify(v ?? null)
        .replaceAll(user.id, 'USER')
        .replaceAll(user.keyId, 'KEY'),
    )
  return rows
    .filter((r) => r.target === user.id || r.target === user.keyId)
    .map((r) => ({ actor: r.actor, action: r.action, target: name(r.target), before: name(r.before), after: name(r.after), note: r.note }))
}

test('the default user leaves the rows a user made through the admin API leaves: audit trail, credit, key', async () => {
  const tg = await startTollgate({ credit: 7 })
  try {
    const viaApi = await tg.admin.createUser({ email: 'other@tollgate.test', credit: 7, key: {} })
    const made = await trail(tg, tg.user)
    expect(made.map((r) => r.action)).toEqual(['user.create', 'user.credit', 'key.create'])
    expect(made.slice(1)).toEqual((await trail(tg, { id: viaApi.id, keyId: viaApi.key!.id })).slice(1))
    expect(made[0]).toEqual({
      actor: 'token',
      action: 'user.create',
      target: 'USER',
      before: null,
      after: { email: 'user@tollgate.test' },
      note: null,
    })
    expect(await tg.wallet.balance(tg.user.id)).toEqual(await tg.wallet.balance(viaApi.id))
    const keys = await tg.admin.keys(tg.user.id)
    const apiKeys = await tg.admin.keys(viaApi.id)
    const settings = (k: (typeof keys)[number]) => ({ ...k, id: undefined, prefix: undefined, createdAt: undefined, lastUsedAt: undefined })
    expect(keys.map(settings)).toEqual(apiKeys.map(settings))
    expect(keys.map((k) => k.id)).toEqual([tg.user.keyId])
  } finally {
    await tg.stop()
  }
}, 60_000)

test('a refusal is a TollgateAdminError with the admin API status and message', async () => {
  const tg = await startTollgate()
  try {
    const taken = await createDefaultUser(tg.runtime.deps, tg.user.email, 1).catch((e: unknown) => e)
    expect(taken).toBeInstanceOf(TollgateAdminError)
    expect(taken).toMatchObject({ status: 409, message: 'A user with this email already exists.' })
    const tooMuch = await createDefaultUser(tg.runtime.deps, 'rich@tollgate.test', 1e12).catch((e: unknown) => e)
    expect(tooMuch).toMatchObject({ status: 400 })
    // The same refusal through the admin API.
    await expect(tg.admin.createUser({ email: 'rich2@tollgate.test', credit: 1e12 })).rejects.toMatchObject({
      status: 400,
      message: (tooMuch as Error).message,
    })
    // Without credit the user gets none, and still a key.
    const poor = await createDefaultUser(tg.runtime.deps, 'poor@tollgate.test', 0)
    expect(await tg.wallet.balance(poor.id)).toEqual({ balance: 0, reserved: 0 })
    expect((await tg.admin.keys(poor.id)).map((k) => k.id)).toEqual([poor.key.id])
  } finally {
    await tg.stop()
  }
}, 60_000)
