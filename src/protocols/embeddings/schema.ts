// POST /v1/embeddings body (docs/api.md "Embeddings"), OpenAI's shape. Minimal and tolerant:
// only what the gateway reads or bounds is described; unknown fields pass through upstream.
import { Type as t, type Static } from '@sinclair/typebox'

/** OpenAI's own bound on the inputs of one call. */
export const MAX_INPUTS = 2048

const Text = t.String({ minLength: 1 })
/** Token ids are vocabulary indexes: integers no upstream's vocabulary exceeds (int32). */
export const MAX_TOKEN_ID = 2_147_483_647
const Tokens = t.Array(t.Integer({ minimum: 0, maximum: MAX_TOKEN_ID }), { minItems: 1 })

export const EmbeddingsRequest = t.Object({
  model: t.String({ minLength: 1 }),
  /** One text, texts, one token array, or token arrays (counted against MAX_INPUTS in index.ts). */
  input: t.Union([Text, t.Array(Text, { minItems: 1 }), Tokens, t.Array(Tokens, { minItems: 1 })]),
  encoding_format: t.Optional(t.Union([t.Literal('float'), t.Literal('base64')])),
  dimensions: t.Optional(t.Integer({ minimum: 1 })),
  user: t.Optional(t.String()),
})
export type EmbeddingsRequest = Static<typeof EmbeddingsRequest>
type Input = EmbeddingsRequest['input']

/** The inputs of a call, each a text or a token array. */
export function inputsOf(input: Input): (string | number[])[] {
  if (typeof input === 'string') return [input]
  return typeof input[0] === 'number' ? [input as number[]] : (input as string[] | number[][])
}

/**
 * Characters per token id in a token array: the reservation's token estimate divides characters
 * by 3 (billing/estimate.ts), so a token array reserves exactly its length.
 */
const CHARS_PER_TOKEN_ID = 3

/** The size of one input as the estimates count it. */
const charsOf = (one: string | number[]): number => (typeof one === 'string' ? one.length : one.length * CHARS_PER_TOKEN_ID)

/** All inputs' size (the reservation) and the largest one's (each input must fit the model's window). */
export function inputChars(inputs: (string | number[])[]): { total: number; longest: number } {
  let total = 0
  let longest = 0
  for (const one of inputs) {
    const n = charsOf(one)
    total += n
    if (n > longest) longest = n
  }
  return { total, longest }
}
