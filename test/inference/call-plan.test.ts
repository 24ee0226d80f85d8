import { describe, expect, test } from 'bun:test'
import type { CatalogModel } from '../../src/catalog/catalog.ts'
import { planCall } from '../../src/inference/call-plan.ts'

const model = (id: string, over: Partial<CatalogModel> = {}): CatalogModel => ({
  id,
  kind: 'chat',
  name: id,
  description: '',
  provider: 'acme',
  family: '',
  contextWindow: 8_000,
  capabilities: [],
  pricing: { input: 1_000_000_000n, output: 2_000_000_000n, cacheRead: null, cacheWrite: null },
  deprecated: false,
  created: 0,
  routes: [],
  fallbacks: [],
  ...over,
})
describe('planCall', () => {
  test('the reservation is the dearest candidate’s, under the first one’s id, holding every route', () => {
    const route = (id: string) => ({ gateway: { id } as never, upstreamModel: id })
    const cheap = model('cheap', { routes: [route('r1')] })
    const dear = model('dear', {
      routes: [route('r2')],
      pricing: { input: 9_000_000_000n, output: 9_000_000_000n, cacheRead: null, cacheWrite: null },
    })
    const plan = planCall([cheap, dear], { promptChars: 400, maxTokens: 100, choices: 1 }, 4_096)
    expect(plan.admitted.model.id).toBe('cheap')
    expect(plan.admitted.model.pricing).toBe(dear.pricing)
    expect(plan.admitted.model.routes.map((r) => r.upstreamModel)).toEqual(['r1', 'r2'])
    expect(plan.chain.map((p) => p.tokens)).toEqual([plan.chain[0]!.estimate.inputTokens + 100, plan.chain[1]!.estimate.inputTokens + 100])
    expect(planCall([cheap], { promptChars: 4, maxTokens: 1, choices: 1 }, 4_096).admitted.model).toBe(cheap)
  })
})
