// A migrated real Postgres for the schema tests (one fresh database per test file): what a
// schema file declares must be what the migrations built — the drizzle table written and read
// back, and its keys, defaults and references enforced by the server.
import { afterAll, beforeAll } from 'bun:test'
import { openDatabase, type Database, type Db } from '../../../src/db/client.ts'
import { freshDatabase } from '../../helpers/services.ts'

/** Call inside a describeServices block: the database, open for the file's tests. */
export function migratedDatabase(): { readonly db: Db } {
  let database: Database
  let drop: () => Promise<void>
  const handle = {
    get db() {
      return database.db
    },
  }
  beforeAll(async () => {
    const fresh = await freshDatabase()
    drop = fresh.drop
    database = await openDatabase(fresh.url)
  }, 60_000)
  afterAll(async () => {
    await database?.close()
    await drop?.()
  }, 60_000)
  return handle
}

/** The SQLSTATE a failed statement carries (drizzle wraps the driver's error in `cause`). */
export async function sqlState(p: PromiseLike<unknown>): Promise<string | undefined> {
  try {
    await p
    return undefined
  } catch (e) {
    const err = e as { code?: string; cause?: { code?: string } }
    return err.cause?.code ?? err.code ?? 'no code'
  }
}

export const UNIQUE_VIOLATION = '23505'
export const FOREIGN_KEY_VIOLATION = '23503'
export const NOT_NULL_VIOLATION = '23502'
export const CHECK_VIOLATION = '23514'

let n = 0
/** A unique id for this run. */
export const uid = (p: string) => `${p}_${Date.now().toString(36)}_${++n}`
