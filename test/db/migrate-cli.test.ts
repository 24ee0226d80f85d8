// `bun run db:migrate` (src/db/migrate-cli.ts) as an operator runs it: applies the migrations to
// DATABASE_URL, says so, and exits 0; a second run changes nothing.
import { afterAll, expect, test } from 'bun:test'
import postgres from 'postgres'
import { describeServices, freshDatabase } from '../helpers/services.ts'

const CLI = new URL('../../src/db/migrate-cli.ts', import.meta.url).pathname

const run = async (env: Record<string, string>) => {
  const proc = Bun.spawn(['bun', CLI], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { out, err, code }
}

describeServices('db:migrate', () => {
  const drops: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const d of drops) await d()
  }, 60_000)

  test('migrates an empty database, then finds nothing to do', async () => {
    const fresh = await freshDatabase()
    drops.push(fresh.drop)
    const first = await run({ DATABASE_URL: fresh.url })
    expect(first).toMatchObject({ code: 0, out: 'migrations applied (postgres)\n' })
    const sql = postgres(fresh.url, { max: 1, onnotice: () => {} })
    try {
      const tables =
        await sql`select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name in ('users', 'ledger_entries', 'api_keys')`
      expect(tables[0]!.n).toBe(3)
      const before = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`
      expect((await run({ DATABASE_URL: fresh.url })).code).toBe(0)
      const after = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`
      expect(after[0]!.n).toBe(before[0]!.n)
    } finally {
      await sql.end()
    }
  }, 60_000)
})
