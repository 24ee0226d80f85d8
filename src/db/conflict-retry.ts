// Transactions Postgres may abort for their concurrency alone: a deadlock (40P01) or a
// serialization failure (40001) rolls the whole transaction back, so running it again is safe and
// is what Postgres asks of the client. Used where concurrent admin changes lock the same rows
// (admin/roles.ts): the loser of a deadlock runs again and meets the rule (a 409), never a 500.
import type { Db } from './client.ts'
import { sqlState } from './sql-state.ts'

const CONCURRENCY_ABORTS: ReadonlySet<string> = new Set(['40P01', '40001'])
const ATTEMPTS = 4

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** `db.transaction(fn)`, run again (at most ATTEMPTS times) when Postgres aborts it for a deadlock or a serialization failure. */
export async function retryingTransaction<T>(db: Pick<Db, 'transaction'>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(fn)
    } catch (err) {
      const state = sqlState(err)
      if (attempt >= ATTEMPTS || state === undefined || !CONCURRENCY_ABORTS.has(state)) throw err
    }
  }
}
