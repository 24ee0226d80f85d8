// A user row for schema tests whose tables reference users.
import type { Db } from '../../../src/db/client.ts'
import { users } from '../../../src/db/schema/users.ts'
import { uid } from './migrated.ts'

export async function aUser(db: Db): Promise<string> {
  const id = uid('usr')
  await db.insert(users).values({ id, email: `${id}@test.local` })
  return id
}
