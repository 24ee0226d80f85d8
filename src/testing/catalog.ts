// The catalog a kit's Tollgate serves when the test names none (docs/testing.md "The default
// catalog"): one model per upstream wire, a model with a backup route, and an embedding model,
// all on the fake upstream, at $1 / $2 per 1M input / output tokens (so a bill is easy to check:
// 1 µUSD per input token, 2 per output token). Each gateway tries once and has no breaker, so a
// scripted failure is seen exactly once.
import type { CatalogFile } from '../catalog/file.ts'

/** One attempt, no breaker: what the kit's gateways default to (docs/failover.md "Catalog fields"). */
export const ONE_ATTEMPT = { retries: 0, breaker: { enabled: false } }

/** The public slugs of the default catalog, and the upstream model each one's first route asks the fake for. */
export const MODELS = {
  /** OpenAI chat upstream; a failure of its route fails over to `chat-backup`. */
  chat: { slug: 'test/chat', upstream: 'chat' },
  /** Its second route (another gateway on the same fake). */
  chatBackup: { slug: 'test/chat', upstream: 'chat-backup' },
  /** Anthropic messages upstream. */
  claude: { slug: 'test/claude', upstream: 'claude' },
  /** OpenAI responses upstream. */
  responses: { slug: 'test/responses', upstream: 'responses' },
  /** Embeddings (OpenAI wire), $1 per 1M input tokens. */
  embed: { slug: 'test/embed', upstream: 'embed' },
} as const

const PRICING = { input: 1, output: 2 }

export function defaultCatalog(upstreamUrl: string): CatalogFile {
  const gateway = (id: string, protocol: CatalogFile['gateways'][number]['protocol']) => ({
    id,
    protocol,
    baseUrl: `${upstreamUrl}/${id}/v1`,
    timeoutMs: 10_000,
    policy: ONE_ATTEMPT,
  })
  const model = (slug: string, name: string, routes: CatalogFile['models'][number]['routes']) => ({
    id: slug,
    name,
    provider: 'test',
    contextWindow: 128_000,
    capabilities: ['text', 'streaming', 'tool-calling', 'reasoning'],
    pricing: PRICING,
    routes,
  })
  return {
    gateways: [
      gateway('fake-openai', 'openai-chat'),
      gateway('fake-backup', 'openai-chat'),
      gateway('fake-anthropic', 'anthropic-messages'),
      gateway('fake-responses', 'openai-responses'),
    ],
    models: [
      model(MODELS.chat.slug, 'Test chat', [
        { gateway: 'fake-openai', model: MODELS.chat.upstream, priority: 0 },
        { gateway: 'fake-backup', model: MODELS.chatBackup.upstream, priority: 1 },
      ]),
      model(MODELS.claude.slug, 'Test Claude', [{ gateway: 'fake-anthropic', model: MODELS.claude.upstream }]),
      model(MODELS.responses.slug, 'Test responses', [{ gateway: 'fake-responses', model: MODELS.responses.upstream }]),
      {
        ...model(MODELS.embed.slug, 'Test embeddings', [{ gateway: 'fake-openai', model: MODELS.embed.upstream }]),
        kind: 'embedding' as const,
        capabilities: [],
        pricing: { input: 1 },
      },
    ],
  }
}
