// The demo's kept key and password: where they are kept, reused while the database accepts them,
// replaced (and said so) when not, never kept for an in-memory database.
import { afterAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { apiKeys } from '../../src/db/schema/index.ts'
import { demoSecrets, secretsFile } from '../../src/demo/credentials.ts'
import { sha256Hex } from '../../src/lib/ids.ts'
import { describeServices } from '../helpers/services.ts'
import { migratedDatabase } from '../db/schema/migrated.ts'
import { aUser } from '../db/schema/user-fixture.ts'

describe('secretsFile', () => {
  test('beside the embedded database; nothing for memory', () => {
    expect(secretsFile(undefined)).toBe('data/demo.json')
    expect(secretsFile('file:///var/lib/tg/pglite')).toBe('/var/lib/tg/demo.json')
    expect(secretsFile('file:./here/db')).toBe('here/demo.json')
    expect(secretsFile('memory://')).toBeUndefined()
  })
})

describeServices('demoSecrets', () => {
  const h = migratedDatabase()
  const dirs: string[] = []
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true })
  })
  const aFile = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tg-demo-'))
    dirs.push(dir)
    return join(dir, 'nested', 'demo.json')
  }

  test('a first run issues both, keeps them in a 0600 file, and the password signs in', async () => {
    const userId = await aUser(h.db)
    const file = await aFile()
    const s = await demoSecrets(h.db, userId, file)
    expect(s).toMatchObject({ keyState: 'new', passwordState: 'new', file })
    expect(await Bun.file(file).json()).toEqual({ key: s.key, password: s.password })
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const [key] = await h.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, sha256Hex(s.key)))
    expect(key?.userId).toBe(userId)
  })

  test('a re-run reuses both', async () => {
    const userId = await aUser(h.db)
    const file = await aFile()
    const first = await demoSecrets(h.db, userId, file)
    const again = await demoSecrets(h.db, userId, file)
    expect(again).toMatchObject({ key: first.key, password: first.password, keyState: 'kept', passwordState: 'kept' })
  })

  test('a revoked key is replaced and reported rotated; the password stays', async () => {
    const userId = await aUser(h.db)
    const file = await aFile()
    const first = await demoSecrets(h.db, userId, file)
    await h.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(eq(apiKeys.keyHash, sha256Hex(first.key)))
    const again = await demoSecrets(h.db, userId, file)
    expect(again.keyState).toBe('rotated')
    expect(again.key).not.toBe(first.key)
    expect(again).toMatchObject({ password: first.password, passwordState: 'kept' })
    expect((await Bun.file(file).json()).key).toBe(again.key)
  })

  test('an unreadable file counts as nothing kept; without a file nothing is written', async () => {
    const userId = await aUser(h.db)
    const file = await aFile()
    await Bun.write(file, 'not json')
    expect(await demoSecrets(h.db, userId, file)).toMatchObject({ keyState: 'new', passwordState: 'new' })
    const memory = await demoSecrets(h.db, await aUser(h.db), undefined)
    expect(memory).toMatchObject({ keyState: 'new', passwordState: 'new', file: undefined })
  })
})
