// The embedded database (PGlite) is single-process: two processes on one data directory can lose
// or corrupt data (docs/operations.md "One process per embedded database"). Whoever opens the
// directory holds it alone through a lock file naming its process; the next opener — a second
// server or a command such as admin:grant — sees the file, finds that process alive and stops
// with one line saying who holds it and what to do. A lock left by a process that died is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'

export const LOCK_FILE = 'tollgate.lock'

/** Who holds a data directory, as its lock file says. */
export interface Holder {
  pid: number
  command: string
}

export class DirectoryHeld extends Error {
  constructor(
    readonly dir: string,
    readonly holder: Holder,
  ) {
    super(
      `the embedded database ${dir} is held by process ${holder.pid} (${holder.command}); ` +
        'only one process may open it: stop that process first, or run the command through it ' +
        '(admin actions: the admin API with its ADMIN_TOKEN, docs/operators.md "Admins")',
    )
    this.name = 'DirectoryHeld'
  }
}

/** Whether a process with this id is running (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>
    return typeof h.pid === 'number' ? { pid: h.pid, command: String(h.command ?? 'unknown') } : undefined
  } catch {
    return undefined
  }
}

/**
 * Takes `dir`'s lock for this process (created exclusively, so of two openers at once one wins)
 * and returns its release. Throws DirectoryHeld when a live process holds it.
 */
export function holdDirectory(dir: string, command: string): () => void {
  const path = join(dir, LOCK_FILE)
  const me: Holder = { pid: process.pid, command }
  for (let tries = 0; ; tries++) {
    try {
      const fd = openSync(path, 'wx')
      writeSync(fd, JSON.stringify(me))
      closeSync(fd)
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 0) throw e
      const holder = readHolder(path)
      if (holder && holder.pid !== process.pid && alive(holder.pid)) throw new DirectoryHeld(dir, holder)
      // Left by a process that is gone (or unreadable: half-written by one that died): taken over.
      unlinkSync(path)
    }
  }
  let held = true
  const release = () => {
    if (!held) return
    held = false
    process.off('exit', release)
    if (readHolder(path)?.pid === process.pid) unlinkSync(path)
  }
  process.on('exit', release)
  return release
}
