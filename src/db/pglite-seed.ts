// A freshly initialised PGlite cluster (initdb only, no migrations), shipped as
// drizzle/pglite-seed/<pglite version>.tar.gz. initdb is the slow, memory-heavy part of a first
// embedded start (≈1 GB peak RSS, seconds on 2 cores); unpacking the seed takes ~0.1 s. Migrations
// still run on top, so the seed never depends on the schema. The seed is used only for the exact
// PGlite version it was made with; otherwise PGlite runs initdb as before. After upgrading PGlite,
// `bun run db:seed` writes the new one (docs/deploy.md "Embedded mode").
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const SEED_DIR = fileURLToPath(new URL('../../drizzle/pglite-seed', import.meta.url))

function pgliteVersion(): string {
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

/** Unpacks the seed into an empty data directory; false when there is no seed or the directory already holds a cluster. */
export async function unpackSeed(dir: string): Promise<boolean> {
  const blob = seed()
  if (!blob || existsSync(join(dir, 'PG_VERSION'))) return false
  await new Bun.Archive(await blob.bytes()).extract(dir)
  return true
}
