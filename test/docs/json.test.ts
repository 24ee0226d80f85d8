// Every JSON block of README.md, docs/deploy.md and docs/providers.md parses; every catalog among
// them (and deploy/catalog.json) passes the real catalog parser and upserts into a database.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readCatalogFile, parseCatalogFile, upsertCatalog } from '../../src/catalog/file.ts'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { allBlocks, blocks, ROOT } from './blocks.ts'

describe('JSON in the docs', () => {
  let database: Database
  beforeAll(async () => {
    database = await openDatabase('memory://')
  }, 30_000)
  afterAll(async () => {
    await database.close()
  }, 60_000)

  const json = allBlocks().filter((b) => b.lang === 'json')
  test('there are JSON blocks to check (README, providers)', () => {
    expect(json.map((b) => b.doc)).toEqual(expect.arrayContaining(['README.md', 'docs/providers.md']))
  }, 60_000)

  for (const b of json)
    test(`${b.doc}:${b.line} is valid JSON, and a valid catalog when it is one`, async () => {
      const value = JSON.parse(b.text)
      if (!('gateways' in value)) return
      const catalog = parseCatalogFile(value)
      await upsertCatalog(database.db, catalog)
      expect(catalog.models.length).toBeGreaterThan(0)
    })

  test('deploy/catalog.json is the worked catalog of docs/providers.md, and valid', async () => {
    const doc = blocks('docs/providers.md').find((b) => b.lang === 'json')!
    const file = await readCatalogFile(`${ROOT}deploy/catalog.json`)
    expect(file).toEqual(JSON.parse(doc.text))
    await upsertCatalog(database.db, file)
    const protocols = new Set(file.gateways.map((g) => g.protocol))
    expect([...protocols].sort()).toEqual(['anthropic-messages', 'openai-chat', 'openai-responses'])
    // References, not literal keys (docs/providers.md "Keys").
    for (const g of file.gateways) expect(g.apiKey).toStartWith('env:')
  })
})
