// Reading a ustar archive in memory: the entries of a cluster's tar (pglite-snapshot.ts), where
// each one's header and data sit, so a caller takes what it needs without copying the rest.
export const TAR_BLOCK = 512

export interface TarEntry {
  /** The path as stored (the prefix field joined in front when set). */
  name: string
  /** Offset of the entry's header; its data starts one block later. */
  at: number
  size: number
  directory: boolean
}

const DIRECTORY = 0x35 // typeflag '5'

const decoder = new TextDecoder()
const text = (bytes: Uint8Array) => decoder.decode(bytes.subarray(0, bytes.indexOf(0) < 0 ? bytes.length : bytes.indexOf(0)))

/** `size` rounded up to whole blocks: the room an entry's data takes. */
export const padded = (size: number) => Math.ceil(size / TAR_BLOCK) * TAR_BLOCK

/** The entries of a ustar archive, in order. */
export function tarEntries(tar: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = []
  for (let at = 0; at + TAR_BLOCK <= tar.length && tar[at] !== 0; ) {
    const name = text(tar.subarray(at, at + 100))
    const prefix = text(tar.subarray(at + 345, at + 500))
    const size = Number.parseInt(text(tar.subarray(at + 124, at + 136)).trim() || '0', 8)
    entries.push({ name: prefix ? `${prefix}/${name}` : name, at, size, directory: tar[at + 156] === DIRECTORY })
    at += TAR_BLOCK + padded(size)
  }
  return entries
}

/** An entry's data: a view of the archive's bytes, not a copy. */
export const tarData = (tar: Uint8Array, entry: TarEntry) => tar.subarray(entry.at + TAR_BLOCK, entry.at + TAR_BLOCK + entry.size)
