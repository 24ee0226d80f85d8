// One fresh process for bench/kit-start.ts: where a cold start's time goes. It runs the steps of
// startTollgate() (src/testing/tollgate.ts) one by one — the database opened as openPglite
// (src/db/client.ts) opens it — and prints one JSON line of milliseconds per step. A copy of
// those steps, for measuring only: the cold figure itself is kit-start-child.ts's.
import type { Database, Db } from '../src/db/client.ts'

const t0 = performance.now()
let last = t0
const ms: Record<string, number> = {}
const lap = (step: string) => {
  const now = performance.now()
  ms[step] = now - last
  last = now
}

const kit = await import('tollgate/testing')
lap('import')
const { createApp } = await import('../src/app.ts')
const { IN_MEMORY_SETTINGS } = await import('../src/db/client.ts')
const { parseCatalogFile } = await import('../src/catalog/file.ts')
const { MIGRATIONS_FOLDER } = await import('../src/db/migrations.ts')
const { ClusterFS } = await import('../src/db/pglite-cluster-fs.ts')
const { startingCluster } = await import('../src/db/pglite-snapshot.ts')
const { pgliteWasm } = await import('../src/db/pglite-wasm.ts')
const schema = await import('../src/db/schema/index.ts')
const { createRuntime } = await import('../src/runtime.ts')
const { createDefaultUser } = await import('../src/testing/default-user.ts')
const { kitConfig, kitRuntimeOptions } = await import('../src/testing/tollgate.ts')
const { PGlite } = await import('@electric-sql/pglite')
const { drizzle } = await import('drizzle-orm/pglite')
const { migrate } = await import('drizzle-orm/pglite/migrator')
lap('other imports')

const start = await startingCluster()
lap(start?.migrated ? 'read snapshot' : 'read seed (snapshot stale)')
const pgliteWasmModule = await pgliteWasm()
lap('wasm compile (rest)')
const client = new PGlite({
  fs: start && new ClusterFS(start.tar),
  pgliteWasmModule,
  startParams: [...PGlite.defaultStartParams, ...IN_MEMORY_SETTINGS],
})
await client.waitReady
lap('PGlite open')
if (!start?.migrated) {
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER })
  lap('migrate (all: snapshot stale)')
}
const database: Database = {
  db: drizzle(client, { schema }) as unknown as Db,
  kind: 'pglite',
  ping: async () => void (await client.query('select 1')),
  close: () => client.close(),
}

const upstream = kit.startFakeUpstream()
const runtime = await createRuntime(
  kitConfig('a'.repeat(32)),
  kitRuntimeOptions(database, parseCatalogFile(kit.defaultCatalog(upstream.url))),
)
lap('runtime and catalog')
const app = createApp(runtime.deps)
app.listen({ port: 0, hostname: '127.0.0.1', reusePort: false })
lap('app build + listen')
const user = await createDefaultUser(runtime.deps, 'user@tollgate.test', 10)
lap('first user and key')
const res = await fetch(`http://127.0.0.1:${app.server!.port}/v1/chat/completions`, {
  method: 'POST',
  headers: { authorization: `Bearer ${user.key.key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'test/chat', messages: [{ role: 'user', content: 'Hi' }] }),
})
if (res.status !== 200) throw new Error(`first call answered ${res.status}`)
await res.json()
lap('first call')
console.log(JSON.stringify(ms))
await app.stop(true)
await runtime.stop()
await upstream.stop()
