// Imported first by the kit (tollgate.ts), so it runs before the gateway's other modules load:
// compiling PGlite's WebAssembly starts here, on the engine's threads, and overlaps the rest of
// the import; a test file's first startTollgate() finds it done or well under way
// (docs/testing.md "Start time").
import { pgliteWasm } from '../db/pglite-wasm.ts'

void pgliteWasm()
