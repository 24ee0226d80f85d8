// A catalog model for unit tests of what reads the catalog (candidates, call plans): a chat model
// at $1 / $2 per 1M tokens with an 8,000-token window, no routes; `over` sets the rest.
import type { CatalogModel } from '../../src/catalog/catalog.ts'

export const catalogModel = (id: string, over: Partial<CatalogModel> = {}): CatalogModel => ({
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
