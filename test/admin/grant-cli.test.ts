// `bun run admin:grant <email>` (docs/operators.md "Admins"): makes an existing account an admin,
// audited as `cli`; an unknown email exits 1 saying so and changes nothing.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { createUser } from '../../src/billing/accounts.ts'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { adminAudit, users } from '../../src/db/schema/index.ts'
import { describeServices, freshDatabase } from '../helpers/services.ts'

const grant = (url: string, email: string) =>
  Bun.spawnSync(['bun', 'src/admin/grant-cli.ts', email], {
    env: { ...process.env, DATABASE_URL: url, REDIS_URL: '' },
    stderr: 'pipe',
    stdout: 'pipe',
  })

describeServices('admin:grant', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>
  let database: Database
  beforeAll(async () => {
    fresh = await freshDatabase()
    database = await openDatabase(fresh.url)
  }, 30_000)
  afterAll(async () => {
    await database.close()
    await fresh.drop()
  })

  test('grants admin to an existing account by email (any case), audited as cli', async () => {
    const user = await createUser(database.db, 'first-op@example.com', null)
    const run = grant(fresh.url, 'First-Op@Example.com')
    expect(run.exitCode).toBe(0)
    expect(run.stdout.toString()).toContain(`first-op@example.com (${user.id}) is now an admin`)
    const [row] = await database.db.select({ role: users.role }).from(users).where(eq(users.id, user.id))
    expect(row!.role).toBe('admin')
    const [audit] = await database.db.select().from(adminAudit).where(eq(adminAudit.target, user.id))
    expect(audit).toMatchObject({ actor: 'cli', action: 'user.role', after: { role: 'admin' } })
  }, 30_000)

  test('an unknown email exits 1 naming it; no one becomes admin', async () => {
    const run = grant(fresh.url, 'nobody@example.com')
    expect(run.exitCode).toBe(1)
    expect(run.stderr.toString()).toContain('no account has the email nobody@example.com')
    const admins = await database.db.select().from(users).where(eq(users.role, 'admin'))
    expect(admins.map((a) => a.email)).toEqual(['first-op@example.com'])
    expect(grant(fresh.url, '').exitCode).toBe(2)
  }, 30_000)
})
