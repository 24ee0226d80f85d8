// Reading a ustar archive in memory (src/db/tar.ts): each entry's name, size, kind and data, the
// data a view of the archive's bytes.
import { expect, test } from 'bun:test'
import { startingCluster } from '../../src/db/pglite-snapshot.ts'
import { TAR_BLOCK, tarData, tarEntries } from '../../src/db/tar.ts'

test('files in order with their sizes and data, as written', async () => {
  const tar = await new Bun.Archive({ 'a.txt': 'x', 'b/c.bin': new Uint8Array([1, 2, 3]), 'b/empty': '' }).bytes()
  const entries = tarEntries(tar)
  expect(entries.map((e) => [e.name, e.size, e.directory])).toEqual([
    ['a.txt', 1, false],
    ['b/c.bin', 3, false],
    ['b/empty', 0, false],
  ])
  expect(entries.map((e) => [...tarData(tar, e)])).toEqual([[0x78], [1, 2, 3], []])
  expect(entries[1]!.at).toBe(2 * TAR_BLOCK)
})

test('a cluster tar: directories marked, file data a view of the tar, not a copy', async () => {
  const { tar } = (await startingCluster())!
  const entries = tarEntries(tar)
  const names = (directory: boolean) => entries.filter((e) => e.directory === directory).map((e) => e.name.replace(/^\//, ''))
  expect(names(true)).toContain('base')
  expect(names(true)).toContain('pg_wal')
  expect(names(false)).toContain('PG_VERSION')
  const version = entries.find((e) => e.name.endsWith('PG_VERSION'))!
  const data = tarData(tar, version)
  expect(new TextDecoder().decode(data)).toMatch(/^\d+\n$/)
  expect(data.buffer).toBe(tar.buffer)
})
