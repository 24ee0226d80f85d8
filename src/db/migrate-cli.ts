// `bun run db:migrate`: apply drizzle/migrations to DATABASE_URL (the server also does it at start).
import { loadConfig } from '../config.ts'
import { openDatabase } from './client.ts'

const config = loadConfig()
const database = await openDatabase(config.databaseUrl).catch((e: Error) => {
  console.error(`db:migrate: ${e.message}`)
  process.exit(1)
})
console.log(`migrations applied (${database.kind})`)
await database.close()
