// latency_bucket (drizzle/migrations 0012) in double precision gives every call the bucket that
// floor(4·log2(ms + 1)) in exact numeric gives: every latency up to 200,000 ms, and the integers
// around every bucket edge up to 2^31.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { describeServices, freshDatabase } from '../helpers/services.ts'

describeServices('latency_bucket', () => {
  let database: Database
  let drop: () => Promise<void>
  beforeAll(async () => {
    const fresh = await freshDatabase()
    drop = fresh.drop
    database = await openDatabase(fresh.url)
  }, 60_000)
  afterAll(async () => {
    await database.close()
    await drop()
  })

  const mismatches = async (values: string) => {
    const result = await database.db.execute(
      sql.raw(`
      select ms, latency_bucket(ms) as got, floor(4 * log(2, greatest(ms, 0) + 1))::int as exact
      from (${values}) v(ms) where latency_bucket(ms) <> floor(4 * log(2, greatest(ms, 0) + 1))::int limit 5`),
    )
    return Array.isArray(result) ? result : (result as { rows: unknown[] }).rows
  }

  test('every latency from 0 to 200,000 ms (and a negative one) lands in its exact bucket', async () => {
    expect(await mismatches('select generate_series(-1, 200000)')).toEqual([])
  }, 60_000)

  test('the integers beside every bucket edge 2^(k/4) up to 2^31 land in their exact buckets', async () => {
    const around = `select e + d from (select floor(power(2::numeric, k / 4.0))::bigint as e from generate_series(1, 123) k) edges,
      generate_series(-3, 3) d where e + d between 0 and 2147483646`
    expect(await mismatches(`select (x)::int from (${around}) a(x)`)).toEqual([])
  }, 60_000)

  test('it is the float function, not the numeric one', async () => {
    const result = await database.db.execute(sql`select prosrc from pg_proc where proname = 'latency_bucket'`)
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { prosrc: string }[]
    expect(rows[0]!.prosrc).toContain('ln(')
  })
})
