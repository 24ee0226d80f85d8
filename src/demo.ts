// `bun run demo`: Tollgate on embedded defaults (PGlite under ./data, in-process store) with a
// local demo upstream, a demo user with credit, a printed API key and a ready curl.
import { eq } from 'drizzle-orm'
import { issueKey } from './auth/issue-key.ts'
import { applyMovement, createUser } from './billing/accounts.ts'
import { users } from './db/schema/index.ts'
import { startDemoUpstream } from './demo/upstream.ts'
import { base62 } from './lib/ids.ts'
import { start } from './index.ts'

const upstream = startDemoUpstream()
const catalogPath = `${process.env.TMPDIR ?? '/tmp'}/tollgate-demo-catalog-${process.pid}.json`
await Bun.write(
  catalogPath,
  JSON.stringify({
    gateways: [{ id: 'demo', protocol: 'openai-chat', baseUrl: `http://127.0.0.1:${upstream.port}/v1`, timeoutMs: 10_000 }],
    models: [
      {
        id: 'demo/echo-1',
        name: 'Echo 1 (demo)',
        description: 'Echoes your last message; served by the local demo upstream.',
        provider: 'demo',
        family: 'echo',
        contextWindow: 32_000,
        capabilities: ['text', 'streaming'],
        pricing: { input: 0.5, output: 1.5 },
        routes: [{ gateway: 'demo', model: 'echo-1' }],
      },
    ],
  }),
)

// The sandbox payment provider is on so that a person can top up from the console (never in production).
const sandboxSecret = process.env.SANDBOX_PAYMENTS_SECRET || base62(32)
const { runtime, url } = await start({
  ...process.env,
  CATALOG_FILE: catalogPath,
  PORT: process.env.PORT ?? '8080',
  SANDBOX_PAYMENTS_SECRET: sandboxSecret,
})
const { db, store } = runtime.deps
const email = 'demo@tollgate.local'
// A new console password at every start (the data directory outlives it); printed below.
const password = base62(16)
const passwordHash = await Bun.password.hash(password, 'argon2id')
let [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email))
if (!user) {
  user = await createUser(db, email, passwordHash)
  await applyMovement(db, store, {
    userId: user.id,
    amountMicros: 10_000_000n,
    kind: 'adjustment',
    method: 'demo',
    reference: `demo:${user.id}`,
  })
} else await db.update(users).set({ passwordHash, disabledAt: null }).where(eq(users.id, user.id))
const { key } = await issueKey(runtime.deps, { userId: user.id, name: 'demo' })
const jar = `${process.env.TMPDIR ?? '/tmp'}/tollgate-demo-cookies.txt`

console.log(`
Tollgate is running at ${url} (embedded PGlite + in-process store, demo upstream on :${upstream.port}).
Demo user ${email} has $10.00 of credit. Demo API key (shown once):

  ${key}

Try it:

  curl -s ${url}/v1/chat/completions \\
    -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" \\
    -d '{"model":"demo/echo-1","messages":[{"role":"user","content":"Hello, Tollgate!"}]}'

Stream it: add "stream":true. List models: curl -s ${url}/v1/models -H "Authorization: Bearer ${key}"

Console (docs/console.md), sandbox payments on. Sign in as ${email} with password ${password}:

  curl -s -c ${jar} ${url}/api/auth/login -H "Content-Type: application/json" \
    -d '{"email":"${email}","password":"${password}"}'

Top up $20 with the sandbox, pay it, and see the balance:

  curl -s -b ${jar} ${url}/api/wallet/topup -H "Content-Type: application/json" -d '{"amount":20,"provider":"sandbox"}'
  curl -s -b ${jar} -X POST ${url}/api/payments/sandbox/<transactionId>/pay
  curl -s -b ${jar} ${url}/api/wallet/account
`)
