// `bun run db:seed`: writes drizzle/pglite-seed/<pglite version>.tar.gz (see pglite-seed.ts).
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { seedPath } from './pglite-seed.ts'

const pg = new PGlite()
await pg.waitReady
const tar = await pg.dumpDataDir('none')
await pg.close()
const path = seedPath()
await mkdir(dirname(path), { recursive: true })
await Bun.write(path, Bun.gzipSync(await tar.bytes(), { level: 9 }))
console.log(`seed written: ${path}`)
