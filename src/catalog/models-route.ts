// GET /v1/models (docs/api.md "Models"): shape A (per-token USD, what the OpenAI SDK's models.list
// reads) by default; shape B (credits per 1M tokens for the key's service mode) with ?shape=b.
import type { Config } from '../config.ts'
import type { CatalogModel } from './catalog.ts'

const PER_TOKEN = 1e15 // nano-USD per 1M tokens → USD per token
const PER_M = 1e9 // nano-USD per 1M tokens → USD per 1M tokens

const usdPerToken = (p: bigint | null): number | null => (p === null ? null : Number(p) / PER_TOKEN)

const base = (m: CatalogModel) => ({ id: m.id, object: 'model', created: m.created, owned_by: m.provider, context_window: m.contextWindow })

export function shapeA(models: CatalogModel[]) {
  return {
    object: 'list',
    data: models.map((m) => ({
      ...base(m),
      capabilities: m.capabilities,
      pricing: { input: usdPerToken(m.pricing.input), output: usdPerToken(m.pricing.output), currency: 'USD' },
    })),
  }
}

const SHAPE_B_CAPS: Record<string, string> = { text: 'chat', 'tool-calling': 'tools', vision: 'vision', embeddings: 'embeddings' }

export function shapeB(models: CatalogModel[], serviceMode: string, config: Pick<Config, 'creditsPerUsd' | 'creditSymbol'>) {
  const credits = (p: bigint | null, fallback: bigint | null) => (Number(p ?? fallback ?? 0n) / PER_M) * config.creditsPerUsd
  return {
    object: 'list',
    service_mode: serviceMode,
    data: models.map((m) => ({
      ...base(m),
      capabilities: [...new Set(m.capabilities.map((c) => SHAPE_B_CAPS[c]).filter((c): c is string => c !== undefined))],
      service_mode: serviceMode,
      pricing: {
        input: credits(m.pricing.input, null),
        output: credits(m.pricing.output, null),
        cache_read: credits(m.pricing.cacheRead, m.pricing.input),
        cache_write: credits(m.pricing.cacheWrite, m.pricing.input),
        unit: '1M_tokens',
        currency: config.creditSymbol,
      },
    })),
  }
}
