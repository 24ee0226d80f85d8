// Preloaded by bunfig.toml before every test file (once per run). Probes the PostgreSQL and
// Redis the suites use (TEST_PG_URL / TEST_REDIS_URL, README "Tests"): without them the
// suites that need them are left out and one line at the end says so and how to enable them;
// under CI (CI=true) they are required and their absence fails the run at once.
import { afterAll } from 'bun:test'
import Redis from 'ioredis'
import postgres from 'postgres'
import { PG_ADMIN_URL, REDIS_URL } from './helpers/service-urls.ts'

async function reachable(check: () => Promise<unknown>): Promise<boolean> {
  return check().then(
    () => true,
    () => false,
  )
}

const pg = () => {
  const sql = postgres(PG_ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => {} })
  return sql`select 1`.finally(() => sql.end({ timeout: 1 }))
}
const redis = async () => {
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 3_000 })
  r.on('error', () => {})
  try {
    await r.connect()
    await r.ping()
  } finally {
    r.disconnect()
  }
}

const [hasPg, hasRedis] = await Promise.all([reachable(pg), reachable(redis)])
const missing = [
  hasPg ? '' : `PostgreSQL (${new URL(PG_ADMIN_URL).host}, TEST_PG_URL)`,
  hasRedis ? '' : `Redis (${new URL(REDIS_URL).host}, TEST_REDIS_URL)`,
].filter(Boolean)
process.env.TOLLGATE_TEST_SERVICES = missing.length === 0 ? '1' : '0'

if (missing.length > 0 && /^(1|true|yes)$/i.test(process.env.CI ?? '')) {
  console.error(`tests: CI requires ${missing.join(' and ')}, unreachable; start them (README "Tests") or point the variables at them`)
  process.exit(1)
}
if (missing.length > 0)
  afterAll(() => {
    console.log(
      `\ntests: skipped the PostgreSQL+Redis suites: ${missing.join(' and ')} unreachable. To run everything, start them or set those variables (README "Tests").`,
    )
  })
