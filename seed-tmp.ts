import { PGlite } from '@electric-sql/pglite'
const pg = new PGlite()
await pg.waitReady
await Bun.write('/tmp/m11/init.tgz', await pg.dumpDataDir('gzip'))
await Bun.write('/tmp/m11/init.tar', await pg.dumpDataDir('none'))
await pg.close()
