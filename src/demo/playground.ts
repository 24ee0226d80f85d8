// The demo's catalog: a playground on the kit's fake upstream (src/testing/fake-upstream), with
// no provider and no network. Every model shows a feature of the gateway: the echo of the quick
// start, a chat model whose calls are shared by two weighted routes and that falls back to the
// echo, an embedding model, and a model whose primary route always fails, so failover and the
// breaker opening can be watched in the operator pages (docs/failover.md).
import type { CatalogFile } from '../catalog/file.ts'
import type { FakeUpstream } from '../testing/fake-upstream/server.ts'

/** The public slugs, for the banner. */
export const PLAYGROUND_MODELS = {
  echo: 'demo/echo-1',
  weighted: 'demo/chat',
  embed: 'demo/embed',
  failing: 'demo/flaky',
} as const

/** The upstream model the failing route asks for; the fake answers it with a 500, always. */
const BROKEN = 'flaky-primary'

export function playgroundCatalog(upstreamUrl: string): CatalogFile {
  const gateway = (id: string, protocol: CatalogFile['gateways'][number]['protocol'], policy = {}) => ({
    id,
    protocol,
    baseUrl: `${upstreamUrl}/${id}/v1`,
    timeoutMs: 10_000,
    policy,
  })
  const model = (id: string, name: string, description: string) => ({
    id,
    name,
    description,
    provider: 'demo',
    contextWindow: 32_000,
    capabilities: ['text', 'streaming', 'tool-calling'],
    pricing: { input: 0.5, output: 1.5 },
  })
  return {
    gateways: [
      gateway('demo', 'openai-chat'),
      gateway('demo-anthropic', 'anthropic-messages'),
      gateway('demo-responses', 'openai-responses'),
      // One attempt and a quick breaker: three failed calls open it for 30 s.
      gateway('demo-flaky', 'openai-chat', { retries: 0, breaker: { failures: 3, cooldownMs: 30_000 } }),
    ],
    models: [
      {
        ...model(PLAYGROUND_MODELS.echo, 'Echo 1 (demo)', 'Echoes your last message; served by the local fake upstream.'),
        routes: [{ gateway: 'demo', model: 'echo-1' }],
      },
      {
        ...model(
          PLAYGROUND_MODELS.weighted,
          'Chat (demo, two routes)',
          'Three calls in four go to one route, one to the other; falls back to Echo 1.',
        ),
        routes: [
          { gateway: 'demo', model: 'chat', weight: 3 },
          { gateway: 'demo-anthropic', model: 'chat', weight: 1 },
        ],
        fallbacks: [PLAYGROUND_MODELS.echo],
      },
      {
        ...model(PLAYGROUND_MODELS.embed, 'Embed (demo)', 'Deterministic 8-dimension vectors, billed per input token.'),
        kind: 'embedding',
        capabilities: [],
        pricing: { input: 0.02 },
        routes: [{ gateway: 'demo', model: 'embed' }],
      },
      {
        ...model(
          PLAYGROUND_MODELS.failing,
          'Flaky (demo)',
          'Its primary route always fails: watch failover and the breaker in the operator pages.',
        ),
        routes: [
          { gateway: 'demo-flaky', model: BROKEN, priority: 0 },
          { gateway: 'demo-responses', model: 'flaky-backup', priority: 1 },
        ],
      },
    ],
  }
}

/** Scripts the fake for the playground: the echo streams word by word; the failing route fails. */
export function scriptPlayground(upstream: FakeUpstream): void {
  upstream.on('*', { frameDelayMs: 15 }).on(BROKEN, { error: { status: 500, message: 'The demo route that always fails.' } })
}
