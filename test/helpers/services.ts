// Real Postgres and Redis for tests (CI provides them; README "Tests"). Each suite gets its own
// database and its own Redis key prefix, so suites never see each other's data.
import { describe } from 'bun:test'
import postgres from 'postgres'
import Redis from 'ioredis'
import { base62 } from '../../src/lib/ids.ts'

import { PG_ADMIN_URL, REDIS_URL } from './service-urls.ts'

export { PG_ADMIN_URL, REDIS_URL }
/** Both reachable (probed once by test/setup.ts); false → suites needing them are left out. */
export const SERVICES = process.env.TOLLGATE_TEST_SERVICES !== '0'

/** describe() for suites that need PostgreSQL and Redis; left out (not run at all) without them. */
export function describeServices(name: string, fn: () => void): void {
  if (SERVICES) describe(name, fn)
}

export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tg_test_${base62(10).toLowerCase()}`
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  await admin.end()
  const url = new URL(PG_ADMIN_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const a = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} })
      await a.unsafe(`drop database if exists ${name} with (force)`)
      await a.end()
    },
  }
}

export function freshKeyPrefix(): { prefix: string; clear: () => Promise<void> } {
  const prefix = `tgtest:${base62(8)}:`
  return {
    prefix,
    clear: async () => {
      const r = new Redis(REDIS_URL)
      let cursor = '0'
      do {
        const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
        cursor = next
        if (keys.length) await r.del(...keys)
      } while (cursor !== '0')
      r.disconnect()
    },
  }
}
