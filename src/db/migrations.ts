// The schema's migrations (drizzle/migrations, written by `bun run db:generate`) and their
// fingerprint: a hash of what drizzle's migrator reads — the journal and each migration's SQL —
// so anything built from them (the embedded snapshot, pglite-snapshot.ts) can tell it is current.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle/migrations', import.meta.url))

/** 16 hex digits of sha256 over the journal and every migration it lists, in its order. */
export function migrationsHash(folder = MIGRATIONS_FOLDER): string {
  const hasher = new Bun.CryptoHasher('sha256')
  const journal = readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')
  hasher.update(journal)
  for (const { tag } of (JSON.parse(journal) as { entries: { tag: string }[] }).entries) {
    hasher.update(readFileSync(join(folder, `${tag}.sql`)))
  }
  return hasher.digest('hex').slice(0, 16)
}
