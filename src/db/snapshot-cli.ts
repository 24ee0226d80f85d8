// `bun run db:snapshot`: writes the migrated snapshot for the installed PGlite and the current
// migrations (pglite-snapshot.ts) and removes the ones it replaces. Run after `bun run
// db:generate` adds a migration or `bun run db:seed` a seed; test/db/pglite-snapshot.test.ts
// fails until then.
import { readdir, rm } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { SEED_DIR } from './pglite-seed.ts'
import { buildSnapshot, SNAPSHOT_PREFIX, snapshotPath } from './pglite-snapshot.ts'

const path = snapshotPath()
const bytes = await buildSnapshot()
await Bun.write(path, bytes)
for (const name of await readdir(SEED_DIR)) {
  if (name.startsWith(SNAPSHOT_PREFIX) && name !== basename(path)) await rm(join(SEED_DIR, name))
}
console.log(`snapshot written: ${path} (${(bytes.length / 1e6).toFixed(1)} MB)`)
