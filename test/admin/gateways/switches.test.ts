// Route switches (docs/operators.md "Models and gateways"): switching off a route the catalog has
// records who did it and says whether it was on; switching it on again removes the row; a route
// the catalog lacks is a 404; clearing (a catalog reload) switches every route on; the catalog
// snapshot leaves switched-off routes out.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { clearSwitches, switchRoute } from '../../../src/admin/gateways/switches.ts'
import { Catalog } from '../../../src/catalog/catalog.ts'
import { parseCatalogFile, upsertCatalog } from '../../../src/catalog/file.ts'
import { GatewayError } from '../../../src/core/errors.ts'
import { routeSwitches } from '../../../src/db/schema/index.ts'
import { simpleCatalog } from '../../helpers/gateway.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'

const ROUTE = { model: 'acme/chat-1', gateway: 'gw-a', upstreamModel: 'upstream-secret-model' }

describe('route switches on embedded Postgres', () => {
  let m: MemoryDb
  let catalog: Catalog
  const routesOf = async () => {
    await catalog.refresh()
    return catalog.all()[0]!.routes.map((r) => r.gateway.id)
  }
  beforeAll(async () => {
    m = await memoryDb()
    const file = simpleCatalog([
      { id: 'gw-a', url: 'http://127.0.0.1:9' },
      { id: 'gw-b', url: 'http://127.0.0.1:9' },
    ])
    await upsertCatalog(m.db, parseCatalogFile(file))
    catalog = new Catalog(m.db, (ref) => ref, new Set(['openai-chat']))
  }, 30_000)
  afterAll(() => m.close())

  test('off: a row naming who, the route leaves the catalog; twice: it was already off', async () => {
    expect(await switchRoute(m.db, ROUTE, false, 'ops@x')).toEqual({ wasEnabled: true })
    expect(await switchRoute(m.db, ROUTE, false, 'token')).toEqual({ wasEnabled: false })
    const rows = await m.db.select().from(routeSwitches)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ modelId: ROUTE.model, gatewayId: 'gw-a', upstreamModel: ROUTE.upstreamModel, disabledBy: 'ops@x' })
    expect(await routesOf()).toEqual(['gw-b'])
  })

  test('on: the row goes and the route is back; on when already on says so', async () => {
    expect(await switchRoute(m.db, ROUTE, true, 'ops@x')).toEqual({ wasEnabled: false })
    expect(await switchRoute(m.db, ROUTE, true, 'ops@x')).toEqual({ wasEnabled: true })
    expect(await routesOf()).toEqual(['gw-a', 'gw-b'])
  })

  test('a route the catalog does not have is a 404, whichever member differs', async () => {
    for (const bad of [
      { ...ROUTE, model: 'acme/none' },
      { ...ROUTE, gateway: 'gw-z' },
      { ...ROUTE, upstreamModel: 'other' },
    ]) {
      const e = await switchRoute(m.db, bad, false, 'x').catch((x) => x)
      expect(e).toBeInstanceOf(GatewayError)
      expect(e.code).toBe('NOT_FOUND')
    }
    expect(await m.db.select().from(routeSwitches)).toEqual([])
  })

  test('clearSwitches switches every route on and counts them', async () => {
    await switchRoute(m.db, ROUTE, false, 'x')
    await switchRoute(m.db, { ...ROUTE, gateway: 'gw-b' }, false, 'x')
    expect(await routesOf()).toEqual([])
    expect(await clearSwitches(m.db)).toBe(2)
    expect(await clearSwitches(m.db)).toBe(0)
    expect(await routesOf()).toEqual(['gw-a', 'gw-b'])
  })
})
