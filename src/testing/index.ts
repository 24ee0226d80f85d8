// `tollgate/testing` (docs/testing.md): the real gateway inside a test suite, and the scriptable
// fake upstream it (or anything else) can call.
//
// This entry starts compiling PGlite's WebAssembly before the rest loads (docs/testing.md "Start
// time"): a module's code runs only once every module it imports statically is loaded, so the kit
// (kit.ts) and with it the gateway are imported here dynamically, after the compile is under way
// on the engine's threads, which then overlaps their loading. Its exports are kit.ts's, named
// again (test/testing/index.test.ts checks the two lists are the same).
import { pgliteWasm } from '../db/pglite-wasm.ts'

void pgliteWasm()
const kit = await import('./kit.ts')

export const {
  startTollgate,
  TollgateAdminError,
  CLOUD_MODELS,
  cloudCatalog,
  defaultCatalog,
  MODELS,
  ONE_ATTEMPT,
  fakeAwsAuth,
  fakeEntraAuth,
  fakeGoogleAuth,
  fakeServiceAccount,
  closeIdleDatabases,
  ANY_MODEL,
  startFakeUpstream,
  TOKEN_MODEL,
} = kit
export type * from './kit.ts'
/** The class's instance type, which the destructured value above does not carry. */
export type TollgateAdminError = InstanceType<typeof TollgateAdminError>
