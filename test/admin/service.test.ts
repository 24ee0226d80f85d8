// What the admin API does (README "Admin API"), below its routes: accounts with normalised
// emails, credit adjustments within ±10,000 USD, keys checked against the catalog and a future
// expiry, disable/revoke dropping cached keys at once, and a catalog reload that changes nothing
// on a bad file and switches every route on again on a good one.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { switchRoute } from '../../src/admin/gateways/switches.ts'
import {
  adjustCredits,
  changeKey,
  createAccount,
  createKey,
  reloadCatalog,
  revokeKey,
  setUserDisabled,
  userKeys,
} from '../../src/admin/service.ts'
import { createUser } from '../../src/billing/accounts.ts'
import { Catalog } from '../../src/catalog/catalog.ts'
import { parseCatalogFile, upsertCatalog } from '../../src/catalog/file.ts'
import { GatewayError } from '../../src/core/errors.ts'
import { apiKeys, routeSwitches, users } from '../../src/db/schema/index.ts'
import { silentLogger } from '../../src/lib/log.ts'
import { simpleCatalog } from '../helpers/gateway.ts'
import { memoryDb, type MemoryDb } from '../helpers/memory-db.ts'

const NOW = Date.UTC(2026, 10, 27, 12)
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e) => (e instanceof GatewayError ? e.code : String(e)),
  )

describe('admin service on embedded Postgres', () => {
  let m: MemoryDb
  let catalog: Catalog
  const invalidated: string[] = []
  const warnings: unknown[] = []
  const catalogPath = `/tmp/tollgate-admin-service-${process.pid}.json`
  let deps: any
  const user = () => createUser(m.db, `${crypto.randomUUID()}@test.local`, null)
  beforeAll(async () => {
    m = await memoryDb()
    const file = simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }])
    await upsertCatalog(m.db, parseCatalogFile(file))
    catalog = new Catalog(m.db, (ref) => (ref?.startsWith('env:') ? undefined : ref), new Set(['openai-chat']))
    await catalog.refresh()
    deps = {
      db: m.db,
      store: m.store,
      now: () => NOW,
      catalog,
      auth: { invalidate: (id: string) => invalidated.push(`key:${id}`), invalidateUser: (id: string) => invalidated.push(`user:${id}`) },
      config: { catalogFile: catalogPath },
      log: { ...silentLogger, warn: (msg: string, f: unknown) => warnings.push({ msg, f }) },
    }
  }, 30_000)
  afterAll(async () => {
    await m.close()
    await Bun.file(catalogPath)
      .delete()
      .catch(() => {})
  })

  test('createAccount: normalised email, argon2id hash when a password is given; a taken email is 409', async () => {
    const email = `New.${crypto.randomUUID()}@Example.com`
    const u = await createAccount(deps, { email: ` ${email} `, password: 'long enough pw' })
    const [row] = await m.db.select().from(users).where(eq(users.id, u.id))
    expect(row!.email).toBe(email.toLowerCase())
    expect(row!.passwordHash).toStartWith('$argon2id$')
    expect(await codeOf(createAccount(deps, { email: email.toUpperCase() }))).toBe('CONFLICT')
    const noPw = await createAccount(deps, { email: `np-${crypto.randomUUID()}@test.local` })
    expect((await m.db.select().from(users).where(eq(users.id, noPw.id)))[0]!.passwordHash).toBeNull()
  })

  test('adjustCredits: non-zero, within ±10,000 USD, at most 6 decimals; an unknown user is 404', async () => {
    const u = await user()
    for (const amount of [0, 10_000.01, -10_000.01, 0.0000001])
      expect(await codeOf(adjustCredits(deps, u.id, { amount }, null))).toBe('BAD_REQUEST')
    expect(await codeOf(adjustCredits(deps, 'usr_nobody', { amount: 1 }, null))).toBe('NOT_FOUND')
    expect(await adjustCredits(deps, u.id, { amount: 10_000 }, null)).toEqual({ balance: 10_000, replayed: false })
    expect(await adjustCredits(deps, u.id, { amount: -10_000 }, '')).toEqual({ balance: 0, replayed: false })
  })

  test('createKey: the owner must exist, the expiry lie ahead, the models match the catalog', async () => {
    const u = await user()
    expect(await codeOf(createKey(deps, { userId: 'usr_nobody' }))).toBe('NOT_FOUND')
    expect(await codeOf(createKey(deps, { userId: u.id, expiresAt: new Date(NOW).toISOString() }))).toBe('VALIDATION_FAILED')
    expect(await codeOf(createKey(deps, { userId: u.id, models: ['other/*'] }))).toBe('VALIDATION_FAILED')
    const k = await createKey(deps, { userId: u.id, models: ['acme/*'], expiresAt: new Date(NOW + 1000).toISOString() })
    expect(k.key).toStartWith('sk-')
    expect((await userKeys(deps, u.id)).items.map((x) => x.id)).toEqual([k.id])
    expect(await codeOf(userKeys(deps, 'usr_nobody'))).toBe('NOT_FOUND')
  })

  test('changeKey and revokeKey drop the key from the cache at once; an unknown key is 404', async () => {
    const u = await user()
    const k = await createKey(deps, { userId: u.id })
    invalidated.length = 0
    expect((await changeKey(deps, k.id, { name: 'renamed' })).name).toBe('renamed')
    expect(await revokeKey(deps, k.id)).toEqual({ id: k.id, revoked: true })
    expect(invalidated).toEqual([`key:${k.id}`, `key:${k.id}`])
    const [row] = await m.db.select().from(apiKeys).where(eq(apiKeys.id, k.id))
    expect(row!.revokedAt).not.toBeNull()
    expect(await codeOf(changeKey(deps, 'key_nope', { name: 'x' }))).toBe('NOT_FOUND')
    expect(await codeOf(revokeKey(deps, 'key_nope'))).toBe('NOT_FOUND')
  })

  test('setUserDisabled: the user and their cached keys at once; the audit commits with it; unknown is 404', async () => {
    const u = await user()
    invalidated.length = 0
    let audited = 0
    expect(await setUserDisabled(deps, u.id, true, async () => void audited++)).toEqual({ id: u.id, disabled: true })
    expect(invalidated).toEqual([`user:${u.id}`])
    expect(audited).toBe(1)
    expect(await codeOf(setUserDisabled(deps, 'usr_nobody', true, async () => void audited++))).toBe('NOT_FOUND')
    expect(audited).toBe(1)
    // A failing audit undoes the change.
    expect(await codeOf(setUserDisabled(deps, u.id, false, async () => Promise.reject(new Error('audit down'))))).toBe('Error: audit down')
    expect((await m.db.select().from(users).where(eq(users.id, u.id)))[0]!.disabledAt).not.toBeNull()
  })

  test('reloadCatalog: no file is 409; a bad file is 400 and changes nothing; a good one reloads and clears switches', async () => {
    expect(await codeOf(reloadCatalog({ ...deps, config: { catalogFile: undefined } }))).toBe('CONFLICT')
    await Bun.write(catalogPath, '{"gateways": "nope"}')
    await switchRoute(m.db, { model: 'acme/chat-1', gateway: 'gw-a', upstreamModel: 'upstream-secret-model' }, false, 'ops')
    expect(await codeOf(reloadCatalog(deps))).toBe('BAD_REQUEST')
    expect(await m.db.select().from(routeSwitches)).toHaveLength(1)
    const next = simpleCatalog([
      { id: 'gw-a', url: 'http://127.0.0.1:9' },
      { id: 'gw-b', url: 'http://127.0.0.1:9' },
    ])
    next.gateways[1]!.apiKey = 'env:TOLLGATE_TEST_UNSET_KEY'
    await Bun.write(catalogPath, JSON.stringify(next))
    warnings.length = 0
    expect(await reloadCatalog(deps)).toEqual({ gateways: 2, models: 1, unsetKeyVariables: ['TOLLGATE_TEST_UNSET_KEY'] })
    expect(await m.db.select().from(routeSwitches)).toEqual([])
    expect(catalog.all()[0]!.routes.map((r) => r.gateway.id)).toEqual(['gw-a', 'gw-b'])
    expect(warnings).toHaveLength(1)
  })
})
