// request_logs as migrated: partitioned by month, keyed by (id, created_at) so a redelivered
// record collides; token counts default to 0; a row of any month is accepted.
import { expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { requestLogs } from '../../../src/db/schema/request-logs.ts'
import { describeServices } from '../../helpers/services.ts'
import { migratedDatabase, sqlState, uid, UNIQUE_VIOLATION } from './migrated.ts'

describeServices('schema: request_logs', () => {
  const h = migratedDatabase()
  const log = (o: Partial<typeof requestLogs.$inferInsert> = {}) => ({
    id: uid('req'),
    userId: 'usr_1',
    keyId: 'key_1',
    model: 'm',
    protocol: 'chat',
    stream: false,
    status: 200,
    usageSource: 'upstream',
    latencyMs: 120,
    ...o,
  })

  test('defaults: zero tokens and cost, no gateway or error, created now', async () => {
    const l = log()
    await h.db.insert(requestLogs).values(l)
    const [row] = await h.db.select().from(requestLogs).where(eq(requestLogs.id, l.id))
    expect(row).toMatchObject({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      costMicros: 0n,
      gateway: null,
      errorCode: null,
      models: null,
    })
    expect(Math.abs(row!.createdAt.getTime() - Date.now())).toBeLessThan(60_000)
  })

  test('the same record delivered twice collides; the same id at another time does not', async () => {
    const at = new Date('2031-03-04T05:06:07Z')
    const l = log({ createdAt: at })
    await h.db.insert(requestLogs).values(l)
    expect(await sqlState(h.db.insert(requestLogs).values(l))).toBe(UNIQUE_VIOLATION)
    await h.db.insert(requestLogs).values({ ...l, createdAt: new Date('2031-03-04T05:06:08Z') })
    expect(await h.db.select().from(requestLogs).where(eq(requestLogs.id, l.id))).toHaveLength(2)
  })

  test('a row lands in its month’s partition, or the default one when the month has none', async () => {
    const now = log()
    const far = log({ createdAt: new Date('2040-07-01T00:00:00Z') })
    await h.db.insert(requestLogs).values([now, far])
    const where = await h.db.execute(sql`select id, tableoid::regclass::text as part from request_logs where id in (${now.id}, ${far.id})`)
    const parts = Object.fromEntries((where as unknown as { id: string; part: string }[]).map((r) => [r.id, r.part]))
    const month = new Date().toISOString().slice(0, 7).replace('-', '')
    expect(parts[now.id]).toBe(`request_logs_p${month}`)
    expect(parts[far.id]).toBe('request_logs_default')
  })
})
