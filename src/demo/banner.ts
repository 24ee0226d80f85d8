// What `bun run demo` prints: where the gateway and its console are, the demo user's real
// balance, the key and password (and whether they are the last run's), commands that work, the
// playground's models, and how to become its admin to see the operator pages.
import type { DemoSecrets, SecretState } from './credentials.ts'

export interface BannerInput {
  url: string
  upstreamPort: number | undefined
  email: string
  /** The account's balance in USD, already formatted with 2 decimals. */
  balance: string
  secrets: DemoSecrets
  /** Cookie jar of the console curl commands. */
  jar: string
  /** The command that makes the demo user an admin; undefined when the database lives only in this process. */
  adminGrant: string | undefined
}

/** Whether a secret is the last run's, a replacement, or new — and where it is kept. */
function note(state: SecretState, file: string | undefined): string {
  if (state === 'kept') return `the same as the last run, kept in ${file}`
  if (state === 'rotated') return `rotated: the one kept in ${file} no longer worked`
  return file ? `new, kept in ${file} for the next run` : 'new, shown once'
}

export function demoBanner({ url, upstreamPort, email, balance, secrets, jar, adminGrant }: BannerInput): string {
  const { key, password, file } = secrets
  return `
Tollgate is running at ${url} (demo upstream on :${upstreamPort}).

Console: ${url}/console
  Sign in as ${email} with password ${password} (${note(secrets.passwordState, file)}).

Demo user ${email} has $${balance} of credit. Demo API key (${note(secrets.keyState, file)}):

  ${key}

Try it:

  curl -s ${url}/v1/chat/completions \\
    -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" \\
    -d '{"model":"demo/echo-1","messages":[{"role":"user","content":"Hello, Tollgate!"}]}'

Stream it: add "stream":true. List models: curl -s ${url}/v1/models -H "Authorization: Bearer ${key}"

The playground's models, all served by the local fake upstream (no provider, no network):

  demo/echo-1  echoes your last message
  demo/chat    two weighted routes (3 calls in 4 on one), falls back to demo/echo-1
  demo/embed   embeddings: curl -s ${url}/v1/embeddings -H "Authorization: Bearer ${key}" \\
                 -H "Content-Type: application/json" -d '{"model":"demo/embed","input":"Hello"}'
  demo/flaky   its primary route always fails: each call fails over; after 3 the breaker opens

Operator pages (routes and breakers, users, reports, ledger): ${url}/console/admin
${
  adminGrant
    ? `  Become the playground's admin: stop this demo (Ctrl-C; the embedded database is held by one
  process at a time, docs/operations.md "One process per embedded database"), run the command,
  start the demo again and sign in:

  ${adminGrant}`
    : '  The database is in memory, in this process only: run the demo on kept data to grant the admin role (bun run admin:grant).'
}

The console API from the shell (docs/console.md), sandbox payments on — sign in, top up $20, pay it, see the balance:

  curl -s -c ${jar} ${url}/api/auth/login -H "Content-Type: application/json" \\
    -d '{"email":"${email}","password":"${password}"}'
  curl -s -b ${jar} ${url}/api/wallet/topup -H "Content-Type: application/json" -d '{"amount":20,"provider":"sandbox"}'
  curl -s -b ${jar} -X POST ${url}/api/payments/sandbox/<transactionId>/pay
  curl -s -b ${jar} ${url}/api/wallet/account
`
}
