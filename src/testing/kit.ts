// What `tollgate/testing` exports (docs/testing.md): the real gateway inside a test suite, and the
// scriptable fake upstream it (or anything else) can call. index.ts loads this file, and with it
// the gateway, once PGlite's compile is under way.
export { startTollgate, type Tollgate, type TollgateOptions } from './tollgate.ts'
export {
  TollgateAdminError,
  type KeyChanges,
  type KeyOptions,
  type KeyView,
  type TestKey,
  type TestUser,
  type TollgateAdmin,
  type TollgateWallet,
} from './admin.ts'
export { CLOUD_MODELS, cloudCatalog, defaultCatalog, MODELS, ONE_ATTEMPT } from './catalog.ts'
export { fakeAwsAuth, fakeEntraAuth, fakeGoogleAuth, fakeServiceAccount } from './cloud-auth.ts'
export { closeIdleDatabases } from './database-pool.ts'
export { ANY_MODEL, type FakeUpstream, type FakeUpstreamOptions, startFakeUpstream } from './fake-upstream/server.ts'
export { TOKEN_MODEL } from './fake-upstream/wires/oauth-token.ts'
export type { RecordedRequest, Reply, Script, ScriptedError, ScriptedToolCall, ScriptedUsage } from './fake-upstream/reply.ts'
export type { CatalogFile } from '../catalog/file.ts'
export type { RequestLog } from '../console/logs/model.ts'
export type { Transaction } from '../console/transactions/model.ts'
