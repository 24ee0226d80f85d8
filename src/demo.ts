// `bun run demo`: Tollgate on embedded defaults (PGlite under ./data, in-process store) with the
// playground catalog on a local fake upstream (demo/playground.ts), a demo user with $10 of
// credit on the first run, the console's address, an API key and console password (the same on a
// re-run over kept data: demo/credentials.ts), the account's real balance, a ready curl and how
// to become the playground's admin (demo/banner.ts).
import { eq } from 'drizzle-orm'
import { applyMovement, createUser } from './billing/accounts.ts'
import { accounts, users } from './db/schema/index.ts'
import { demoBanner } from './demo/banner.ts'
import { demoSecrets, secretsFile } from './demo/credentials.ts'
import { playgroundCatalog, scriptPlayground } from './demo/playground.ts'
import { startFakeUpstream } from './testing/fake-upstream/server.ts'
import { base62 } from './lib/ids.ts'
import { formatScaled } from './lib/money.ts'
import { start } from './index.ts'

const upstream = startFakeUpstream()
scriptPlayground(upstream)
const catalogPath = `${process.env.TMPDIR ?? '/tmp'}/tollgate-demo-catalog-${process.pid}.json`
await Bun.write(catalogPath, JSON.stringify(playgroundCatalog(upstream.url)))

// The sandbox payment provider is on so that a person can top up from the console (never in production).
const sandboxSecret = process.env.SANDBOX_PAYMENTS_SECRET || base62(32)
const { runtime, url } = await start({
  ...process.env,
  CATALOG_FILE: catalogPath,
  PORT: process.env.PORT ?? '8080',
  SANDBOX_PAYMENTS_SECRET: sandboxSecret,
})
const { db, store, config } = runtime.deps
const email = 'demo@tollgate.local'
let [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email))
if (!user) {
  user = await createUser(db, email, null)
  await applyMovement(db, store, {
    userId: user.id,
    amountMicros: 10_000_000n,
    kind: 'adjustment',
    method: 'demo',
    reference: `demo:${user.id}`,
  })
}
const secrets = await demoSecrets(db, user.id, secretsFile(config.databaseUrl))
const [account] = await db.select({ micros: accounts.balanceMicros }).from(accounts).where(eq(accounts.userId, user.id))
const balance = formatScaled(account?.micros ?? 0n, 6, 2)
const jar = `${process.env.TMPDIR ?? '/tmp'}/tollgate-demo-cookies.txt`
// The grant reaches the same database as this server (docs/operators.md "Admins").
const memory = config.databaseUrl?.startsWith('memory:')
const adminGrant = memory ? undefined : `${config.databaseUrl ? `DATABASE_URL=${config.databaseUrl} ` : ''}bun run admin:grant ${email}`
console.log(demoBanner({ url, upstreamPort: upstream.port, email, balance, secrets, jar, adminGrant }))
