// An embedded database (in-memory PGlite, migrated) and the in-process store, for tests of one
// module's queries that need no gateway around them. Each call gets its own database.
import { openDatabase } from '../../src/db/client.ts'
import { createMemoryStore } from '../../src/store/memory.ts'
import type { Db } from '../../src/db/client.ts'
import type { Store } from '../../src/store/types.ts'

export interface MemoryDb {
  db: Db
  store: Store
  close(): Promise<void>
}

export async function memoryDb(): Promise<MemoryDb> {
  const database = await openDatabase('memory://')
  const store = createMemoryStore()
  return {
    db: database.db,
    store,
    close: async () => {
      await store.close()
      await database.close()
    },
  }
}
