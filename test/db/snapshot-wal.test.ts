// Cutting a snapshot tar's WAL (src/db/snapshot-wal.ts): the lowest segment kept up to its last
// written page, recycled segments dropped, every other entry byte for byte as it was.
import { expect, test } from 'bun:test'
import { tarEntries } from '../../src/db/tar.ts'
import { trimWal } from '../../src/db/snapshot-wal.ts'

const PAGE = 8192
const page = (fill: number) => new Uint8Array(PAGE).fill(fill)
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts))

async function tar(files: Record<string, Uint8Array | string>): Promise<Uint8Array> {
  return new Bun.Archive(files).bytes()
}

async function contents(bytes: Uint8Array): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {}
  for (const [path, file] of await new Bun.Archive(bytes).files()) out[path] = await file.bytes()
  return out
}

test('keeps the lowest segment up to its last written page and drops the higher ones', async () => {
  const current = concat(page(1), page(0), page(2), page(0), page(0))
  const before = await tar({
    PG_VERSION: '17\n',
    'pg_wal/000000010000000000000002': current,
    'pg_wal/000000010000000000000003': concat(page(7), page(7)),
    'base/5/1259': concat(page(3), page(0)),
  })
  const after = await contents(trimWal(before))
  expect(Object.keys(after).sort()).toEqual(['PG_VERSION', 'base/5/1259', 'pg_wal/000000010000000000000002'])
  expect(after['pg_wal/000000010000000000000002']).toEqual(current.subarray(0, 3 * PAGE))
  expect(after['base/5/1259']).toEqual(concat(page(3), page(0)))
  expect(new TextDecoder().decode(after.PG_VERSION)).toBe('17\n')
})

test('a segment of zeros keeps its first page', async () => {
  const after = await contents(trimWal(await tar({ 'pg_wal/000000010000000000000001': concat(page(0), page(0)) })))
  expect(after['pg_wal/000000010000000000000001']).toEqual(page(0))
})

test('a tar without WAL comes back with the same entries', async () => {
  const before = await tar({ a: 'x', 'b/c': 'yz' })
  expect(tarEntries(trimWal(before)).map((e) => [e.name, e.size])).toEqual([
    ['a', 1],
    ['b/c', 2],
  ])
})
