// A freshly initialised PGlite cluster (initdb only, no migrations), shipped as
// drizzle/pglite-seed/<pglite version>.tar.gz. initdb is the slow, memory-heavy part of a first
// embedded start (≈1 GB peak RSS, seconds on 2 cores); unpacking the seed takes ~0.1 s. It never
// depends on the schema: a new database starts from the migrated snapshot built on it
// (pglite-snapshot.ts) when that matches the migrations, else from the seed, migrated on top.
// The seed is used only for the exact PGlite version it was made with; otherwise PGlite runs
// initdb as before. After upgrading PGlite, `bun run db:seed` writes the new one, then
// `bun run db:snapshot` the snapshot (docs/deploy.md "Embedded mode").
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const SEED_DIR = fileURLToPath(new URL('../../drizzle/pglite-seed', import.meta.url))

export function pgliteVersion(): string {
  const entry = Bun.resolveSync('@electric-sql/pglite', import.meta.dir)
  let dir = dirname(entry)
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir)
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version
}

export function seedPath(): string {
  return join(SEED_DIR, `${pgliteVersion()}.tar.gz`)
}

/** The seed for the installed PGlite, if shipped. */
export function seed(): Blob | undefined {
  const path = seedPath()
  return existsSync(path) ? Bun.file(path) : undefined
}
