// A fake OpenAI embeddings upstream answer, shaped like the fixture
// (test/fixtures/openai-chat/json-embeddings-float.json): one vector per input, as floats or as
// base64 of little-endian float32 (what the official SDK asks for by default), usage counted as
// one token per 4 characters (or per token id).
import type { Behaviour } from './fake-upstream.ts'
import { fixtureJson } from './fixtures.ts'

const FIXTURE = fixtureJson('openai-chat', 'json-embeddings-float.json')
/** The fixture's vector. */
export const VECTOR: number[] = FIXTURE.data[0].embedding

/** The vector of input `i`: the fixture's, its first element replaced by `i` so inputs are told apart. */
export const vectorOf = (i: number): number[] => [i, ...VECTOR.slice(1)]

const base64Of = (v: number[]): string => Buffer.from(new Float32Array(v).buffer).toString('base64')

const tokensOf = (one: unknown): number => (Array.isArray(one) ? one.length : Math.ceil(String(one).length / 4))

export function embeddingsAnswer(body: any, o: { usage?: boolean; extra?: Record<string, unknown> } = {}): string {
  const inputs: unknown[] = typeof body.input === 'string' || typeof body.input[0] === 'number' ? [body.input] : body.input
  const data = inputs.map((_, i) => ({
    object: 'embedding',
    index: i,
    embedding: body.encoding_format === 'base64' ? base64Of(vectorOf(i)) : vectorOf(i),
  }))
  const tokens = inputs.reduce((n: number, one) => n + tokensOf(one), 0)
  const usage = o.usage === false ? {} : { usage: { prompt_tokens: tokens, total_tokens: tokens } }
  return JSON.stringify({ object: 'list', data, model: FIXTURE.model, ...usage, ...o.extra }, null, 2)
}

/** A fake-upstream behaviour answering each embeddings request it gets. */
export const embeddingsBehaviour = (o: Parameters<typeof embeddingsAnswer>[1] = {}): Behaviour => ({
  kind: 'fn',
  handle: (_req, body) => new Response(embeddingsAnswer(body, o), { headers: { 'content-type': 'application/json' } }),
})

/** A catalog embedding model (public slug `acme/embed-1`) routed to `gateways` in order; $0.13 per 1M input tokens. */
export const embeddingModel = (gateways: string[]) => ({
  id: 'acme/embed-1',
  name: 'Embed 1',
  provider: 'acme',
  kind: 'embedding' as const,
  contextWindow: 8_192,
  capabilities: [],
  pricing: { input: 0.13 },
  routes: gateways.map((gateway) => ({ gateway, model: 'text-embedding-3-small' })),
})
