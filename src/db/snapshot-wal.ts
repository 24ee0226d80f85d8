// The write-ahead log of a snapshot tar (pglite-snapshot.ts), cut to what a start needs. Built
// after a WAL switch and a checkpoint, the lowest-numbered segment holds the checkpoint record on
// its first pages and zeros after them; higher-numbered ones are old segments recycled under
// future names. A start reads the checkpoint record and writes on from it, growing the segment
// or making new ones as usual, so the tar keeps the lowest segment's pages up to its last written
// one and drops the recycled segments: 16 MB per segment less to decompress and to load.
import { padded, TAR_BLOCK, tarData, tarEntries } from './tar.ts'

const WAL_PAGE = 8192
const SEGMENT = /(^|\/)pg_wal\/[0-9A-F]{24}$/

/** The header at `at` with its size field set to `size` and its checksum recomputed. */
function resized(tar: Uint8Array, at: number, size: number): Uint8Array {
  const header = tar.slice(at, at + TAR_BLOCK)
  header.set(new TextEncoder().encode(`${size.toString(8).padStart(11, '0')}\0`), 124)
  header.fill(0x20, 148, 156)
  const sum = header.reduce((a, b) => a + b, 0)
  header.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148)
  return header
}

/** Bytes of `data` up to its last WAL page holding anything but zeros (at least one page). */
function written(data: Uint8Array): number {
  let end = data.length
  while (end > WAL_PAGE && data.subarray(end - WAL_PAGE, end).every((b) => b === 0)) end -= WAL_PAGE
  return end
}

/** The tar with only the lowest WAL segment, cut after its last written page. */
export function trimWal(tar: Uint8Array): Uint8Array {
  const entries = tarEntries(tar)
  const segments = entries.filter((e) => SEGMENT.test(e.name)).sort((a, b) => (a.name < b.name ? -1 : 1))
  const current = segments[0]
  const parts: Uint8Array[] = []
  for (const entry of entries) {
    const body = tarData(tar, entry)
    if (entry === current) {
      const size = written(body)
      parts.push(resized(tar, entry.at, size), tar.subarray(entry.at + TAR_BLOCK, entry.at + TAR_BLOCK + padded(size)))
    } else if (!segments.includes(entry)) {
      parts.push(tar.subarray(entry.at, entry.at + TAR_BLOCK + padded(entry.size)))
    }
  }
  parts.push(new Uint8Array(2 * TAR_BLOCK))
  return Buffer.concat(parts)
}
