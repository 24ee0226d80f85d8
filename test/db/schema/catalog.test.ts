// gateways, models and model_routes as migrated: defaults, nano-USD prices as bigint, jsonb
// members round-trip, a model's routes keyed by position and deleted with it.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { gateways, modelRoutes, models } from '../../../src/db/schema/catalog.ts'
import { describeServices } from '../../helpers/services.ts'
import { FOREIGN_KEY_VIOLATION, migratedDatabase, sqlState, uid, UNIQUE_VIOLATION } from './migrated.ts'

describeServices('schema: catalog', () => {
  const h = migratedDatabase()
  const model = (o: Partial<typeof models.$inferInsert> = {}) => ({
    id: uid('model'),
    name: 'A model',
    provider: 'acme',
    contextWindow: 128_000,
    capabilities: ['tools', 'vision'],
    ...o,
  })

  test('a gateway: 30 s timeout and enabled by default; policy, headers and query as JSON', async () => {
    const id = uid('gw')
    await h.db.insert(gateways).values({
      id,
      protocol: 'openai-chat',
      baseUrl: 'https://up.example/v1',
      apiKeyRef: 'env:UP_KEY',
      policy: { retries: 1, breaker: { failures: 3 } },
      headers: { 'x-team': 'env:TEAM' },
    })
    const [g] = await h.db.select().from(gateways).where(eq(gateways.id, id))
    expect(g).toMatchObject({
      timeoutMs: 30_000,
      enabled: true,
      policy: { retries: 1, breaker: { failures: 3 } },
      headers: { 'x-team': 'env:TEAM' },
      query: null,
    })
  })

  test('a model: chat by default, not deprecated, prices exact or null', async () => {
    const m = model({ priceInput: 75_000_000n, priceOutput: 300_000_000_000n, fallbacks: ['other'] })
    await h.db.insert(models).values(m)
    const [row] = await h.db.select().from(models).where(eq(models.id, m.id))
    expect(row).toMatchObject({
      kind: 'chat',
      deprecated: false,
      description: '',
      family: '',
      capabilities: ['tools', 'vision'],
      priceInput: 75_000_000n,
      priceOutput: 300_000_000_000n,
      priceCacheRead: null,
      fallbacks: ['other'],
    })
    expect(await sqlState(h.db.insert(models).values({ ...model(), id: m.id }))).toBe(UNIQUE_VIOLATION)
  })

  test('routes: one per position, only for a known model, deleted with their model', async () => {
    const m = model()
    await h.db.insert(models).values(m)
    await h.db.insert(modelRoutes).values([
      { modelId: m.id, position: 0, gatewayId: 'gw-a', upstreamModel: 'up-a', options: { weight: 3 } },
      { modelId: m.id, position: 1, gatewayId: 'gw-b', upstreamModel: 'up-b' },
    ])
    expect(await sqlState(h.db.insert(modelRoutes).values({ modelId: m.id, position: 1, gatewayId: 'gw-c', upstreamModel: 'c' }))).toBe(
      UNIQUE_VIOLATION,
    )
    expect(
      await sqlState(h.db.insert(modelRoutes).values({ modelId: uid('nomodel'), position: 0, gatewayId: 'g', upstreamModel: 'u' })),
    ).toBe(FOREIGN_KEY_VIOLATION)
    const routes = await h.db.select().from(modelRoutes).where(eq(modelRoutes.modelId, m.id)).orderBy(modelRoutes.position)
    expect(routes.map((r) => [r.gatewayId, r.options])).toEqual([
      ['gw-a', { weight: 3 }],
      ['gw-b', null],
    ])
    await h.db.delete(models).where(eq(models.id, m.id))
    expect(await h.db.select().from(modelRoutes).where(eq(modelRoutes.modelId, m.id))).toEqual([])
  })
})
