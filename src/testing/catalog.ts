// The catalog a kit's Tollgate serves when the test names none (docs/testing.md "The default
// catalog"): one model per upstream wire, a model with a backup route, and an embedding model,
// all on the fake upstream, at $1 / $2 per 1M input / output tokens (so a bill is easy to check:
// 1 µUSD per input token, 2 per output token). Each gateway tries once and has no breaker, so a
// scripted failure is seen exactly once.
import type { CatalogFile } from '../catalog/file.ts'
import { fakeAwsAuth, fakeEntraAuth, fakeGoogleAuth } from './cloud-auth.ts'

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

/**
 * The cloud models of cloudCatalog, and the upstream model the fake sees for each first route
 * (Bedrock and Vertex name it in the path; Azure's deployment names it).
 */
export const CLOUD_MODELS = {
  /** Claude on Bedrock (InvokeModel / InvokeModelWithResponseStream), SigV4. */
  bedrockClaude: { slug: 'test/bedrock-claude', upstream: 'anthropic.claude-fake-v1:0' },
  /** Any model on Bedrock's Converse / ConverseStream, SigV4. */
  bedrockConverse: { slug: 'test/bedrock-converse', upstream: 'meta.llama-fake-v1:0' },
  /** Claude on Vertex AI (rawPredict / streamRawPredict), Google service account. */
  vertexClaude: { slug: 'test/vertex-claude', upstream: 'claude-fake@20250101' },
  /** Gemini on Vertex's OpenAI-compatible endpoint, Google service account. */
  vertexGemini: { slug: 'test/vertex-gemini', upstream: 'google/gemini-fake' },
  /** Azure OpenAI's deployment path with api-version, Entra ID. */
  azure: { slug: 'test/azure', upstream: 'fake-deployment' },
  /** Every cloud model's second route (openai-chat, gateway fake-backup). */
  backup: { upstream: 'cloud-backup' },
} as const

/**
 * defaultCatalog plus one model per cloud wire (docs/testing.md "Cloud wires on the fake"), each
 * with the cloud's auth pointed at the fake and a second route on `fake-backup`. Its cloud
 * gateways try once, without a breaker, and commit a stream at its first content.
 */
export function cloudCatalog(upstreamUrl: string): CatalogFile {
  const base = defaultCatalog(upstreamUrl)
  const gateway = (id: string, protocol: CatalogFile['gateways'][number]['protocol'], path: string, more: object) => ({
    id,
    protocol,
    baseUrl: `${upstreamUrl}${path}`,
    timeoutMs: 10_000,
    // A stream is committed at its first content, so an error event before it (Bedrock's
    // throttlingException frame) fails over as an HTTP error would (docs/failover.md).
    policy: { ...ONE_ATTEMPT, firstTokenMs: 5_000 },
    ...more,
  })
  const model = (m: { slug: string }, name: string, gatewayId: string, upstream: string) => ({
    id: m.slug,
    name,
    provider: 'test',
    contextWindow: 128_000,
    capabilities: ['text', 'streaming', 'tool-calling', 'reasoning'],
    pricing: PRICING,
    routes: [
      { gateway: gatewayId, model: upstream, priority: 0 },
      { gateway: 'fake-backup', model: CLOUD_MODELS.backup.upstream, priority: 1 },
    ],
  })
  const vertex = '/vertex/v1/projects/fake-project/locations'
  return {
    gateways: [
      ...base.gateways,
      gateway('fake-bedrock', 'bedrock-anthropic', '/bedrock', { auth: fakeAwsAuth() }),
      gateway('fake-bedrock-converse', 'bedrock-converse', '/bedrock', { auth: fakeAwsAuth() }),
      gateway('fake-vertex', 'vertex-anthropic', `${vertex}/us-east5`, { auth: fakeGoogleAuth(upstreamUrl) }),
      gateway('fake-vertex-gemini', 'openai-chat', `${vertex}/global/endpoints/openapi`, { auth: fakeGoogleAuth(upstreamUrl) }),
      gateway('fake-azure', 'openai-chat', `/azure/openai/deployments/${CLOUD_MODELS.azure.upstream}`, {
        query: { 'api-version': '2025-04-01-preview' },
        auth: fakeEntraAuth(upstreamUrl),
      }),
    ],
    models: [
      ...base.models,
      model(CLOUD_MODELS.bedrockClaude, 'Test Claude on Bedrock', 'fake-bedrock', CLOUD_MODELS.bedrockClaude.upstream),
      model(CLOUD_MODELS.bedrockConverse, 'Test Converse on Bedrock', 'fake-bedrock-converse', CLOUD_MODELS.bedrockConverse.upstream),
      model(CLOUD_MODELS.vertexClaude, 'Test Claude on Vertex', 'fake-vertex', CLOUD_MODELS.vertexClaude.upstream),
      model(CLOUD_MODELS.vertexGemini, 'Test Gemini on Vertex', 'fake-vertex-gemini', CLOUD_MODELS.vertexGemini.upstream),
      // Azure ignores the body's model: the deployment in the path names it.
      model(CLOUD_MODELS.azure, 'Test GPT on Azure', 'fake-azure', 'gpt-fake'),
    ],
  }
}
