// `bun run admin:grant <email>`: makes an existing account an admin (docs/operators.md "Admins"),
// for the first operator, before any admin session exists. Uses DATABASE_URL like the server.
import { loadConfig } from '../config.ts'
import { openDatabase } from '../db/client.ts'
import { recordAudit } from './audit.ts'
import { grantAdminByEmail } from './roles.ts'

const email = process.argv[2]
if (!email) {
  console.error('usage: bun run admin:grant <email>')
  process.exit(2)
}
// A running server on the same embedded database holds it: the one line says so (db/dir-lock.ts).
const database = await openDatabase(loadConfig().databaseUrl).catch((e: Error) => {
  console.error(`admin:grant: ${e.message}`)
  process.exit(1)
})
try {
  const user = await grantAdminByEmail(database.db, email)
  if (!user) {
    console.error(`admin:grant: no account has the email ${email}; register it at /console first`)
    process.exitCode = 1
  } else {
    await recordAudit(database.db, { kind: 'cli' }, { action: 'user.role', target: user.id, after: { role: 'admin' } })
    console.log(`${user.email} (${user.id}) is now an admin`)
  }
} finally {
  await database.close()
}
