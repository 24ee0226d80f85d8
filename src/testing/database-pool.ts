// In-memory databases for the kit's instances (docs/testing.md "Start time"). Opening PGlite
// (from the migrated snapshot) is most of a start, so a stopped instance's database is emptied (every table
// truncated: the migrations insert no rows, so empty is as new) and kept for the next start —
// but only for LINGER_MS: an open PGlite keeps the process alive (its runtime's timers), so a
// database nobody takes is closed soon and a test process still exits on its own.
import { sql } from 'drizzle-orm'
import { type Database, openDatabase } from '../db/client.ts'

const KEEP = 4
const LINGER_MS = 1_000

interface Idle {
  database: Database
  timer: ReturnType<typeof setTimeout>
}
const idle: Idle[] = []

const EMPTY_ALL = sql.raw(`DO $$
DECLARE tables text;
BEGIN
  SELECT string_agg(format('%I.%I', schemaname, tablename), ', ') INTO tables FROM pg_tables WHERE schemaname = 'public';
  IF tables IS NOT NULL THEN EXECUTE 'TRUNCATE ' || tables || ' RESTART IDENTITY CASCADE'; END IF;
END $$`)

function closeLater(database: Database): Idle {
  const entry: Idle = {
    database,
    timer: setTimeout(() => {
      idle.splice(idle.indexOf(entry), 1)
      void database.close().catch(() => {})
    }, LINGER_MS),
  }
  return entry
}

async function giveBack(database: Database): Promise<void> {
  if (idle.length >= KEEP) return database.close()
  try {
    await database.db.execute(EMPTY_ALL)
    idle.push(closeLater(database))
  } catch {
    await database.close()
  }
}

/** A migrated, empty in-memory database; its close() empties it and keeps it briefly for the next take. */
export async function takeDatabase(): Promise<Database> {
  const kept = idle.pop()
  if (kept) clearTimeout(kept.timer)
  const database = kept?.database ?? (await openDatabase('memory://'))
  let closed: Promise<void> | undefined
  return { ...database, close: () => (closed ??= giveBack(database)) }
}

/** Closes the kept databases now (instead of LINGER_MS after their instance stopped). */
export async function closeIdleDatabases(): Promise<void> {
  for (const { database, timer } of idle.splice(0)) {
    clearTimeout(timer)
    await database.close()
  }
}
