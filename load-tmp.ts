import { PGlite } from '@electric-sql/pglite'
const t0 = performance.now()
const [dir, seed, mem] = process.argv.slice(2)
const opts: any = seed && seed !== '-' ? { loadDataDir: Bun.file(seed) } : {}
if (mem) opts.initialMemory = Number(mem)
const pg = dir && dir !== '-' ? new PGlite(dir, opts) : new PGlite(opts)
await pg.waitReady
console.log((await pg.query('select 1')).rows.length, Math.round(performance.now() - t0), 'ms')
await pg.close()
