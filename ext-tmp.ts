import { PGlite } from '@electric-sql/pglite'
const t0 = performance.now()
const dir = process.argv[2]!
const n = await new Bun.Archive(await Bun.file('/tmp/m11/init.tgz').bytes()).extract(dir)
console.log('extracted', n, Math.round(performance.now() - t0))
const pg = new PGlite(dir)
console.log((await pg.query('select 1')).rows.length, Math.round(performance.now() - t0), 'ms')
await pg.close()
