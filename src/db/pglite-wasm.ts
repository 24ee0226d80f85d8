// PGlite's WebAssembly module (9 MB), compiled once per process and shared by every PGlite it
// opens. Compiling is about a third of a first in-memory open, and the engine does it on its own
// threads: a caller that knows a database will be needed soon (the test kit, when imported)
// starts it early, and the compile overlaps whatever the process does meanwhile.
import { readFileSync } from 'node:fs'

let compiled: Promise<WebAssembly.Module | undefined> | undefined

/** The compiled module, or undefined if it could not be read (PGlite then loads it itself). */
export function pgliteWasm(): Promise<WebAssembly.Module | undefined> {
  // Read at once (not awaited) so the compile is under way when this returns.
  compiled ??= new Promise<WebAssembly.Module>((resolve) => {
    const url = new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite'))
    resolve(WebAssembly.compile(readFileSync(url)))
  }).catch(() => undefined)
  return compiled
}
