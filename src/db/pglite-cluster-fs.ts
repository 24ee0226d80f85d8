// PGlite's in-memory file system, holding a cluster's data directory from the start: the tar of
// the migrated snapshot or of the initdb seed (pglite-snapshot.ts). PGlite's own `loadDataDir`
// copies each file twice (out of the tar, then into its file system) and looks up every parent
// directory of every file; here each file is a view of the tar, whose bytes the database then
// owns and writes in place (docs/testing.md "Start time"). PGlite finds a data directory and
// starts Postgres on it, as on a directory it stored itself. Loaded with PGlite, never before.
import { MemoryFS } from '@electric-sql/pglite'
import { tarData, tarEntries } from './tar.ts'

/** The part of Emscripten's FS this uses. */
interface EmscriptenFs {
  mkdirTree(path: string): void
  writeFile(path: string, data: Uint8Array, opts: { canOwn: boolean }): void
}

const parent = (path: string) => path.slice(0, path.lastIndexOf('/'))

export class ClusterFS extends MemoryFS {
  /** `tar` becomes the database's: nothing else may read or write it afterwards. */
  constructor(private readonly tar: Uint8Array) {
    super()
  }

  override async initialSyncFs(): Promise<void> {
    const { FS, ENV } = this.pg!.Module
    const fs = FS as unknown as EmscriptenFs
    const made = new Set<string>()
    const mkdir = (path: string) => {
      if (made.has(path)) return
      fs.mkdirTree(path)
      made.add(path)
    }
    for (const entry of tarEntries(this.tar)) {
      const path = `${ENV.PGDATA}/${entry.name.replace(/^\/+|\/+$/g, '')}`
      if (entry.directory) mkdir(path)
      else {
        mkdir(parent(path))
        fs.writeFile(path, tarData(this.tar, entry), { canOwn: true })
      }
    }
  }
}
