// The fake's OpenAI embeddings wire: one deterministic vector per input (the same input, the same
// vector), as floats or base64 float32, with usage; embeddings never stream.
import { errorMessage, stringOr, type Wire, endingIn } from './wire.ts'

/** A unit-free, deterministic vector for an input's position: enough to tell inputs apart. */
const vector = (i: number, dims: number) => Array.from({ length: dims }, (_, d) => Math.fround(Math.sin(i * 31 + d + 1) / 4))

const inputText = (input: unknown) =>
  Array.isArray(input) ? input.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' ') : stringOr(input, '')

/** A string, a token array, or a list of either. */
const inputCount = (input: unknown) => (Array.isArray(input) && input.length > 0 && typeof input[0] !== 'number' ? input.length : 1)

export const embeddings: Wire = {
  name: 'embeddings',
  ...endingIn('/embeddings'),
  read: (body) => ({
    model: stringOr(body?.model, ''),
    stream: false,
    prompt: '',
    inputText: inputText(body?.input),
    inputs: inputCount(body?.input),
  }),
  json: (a) => ({
    object: 'list',
    data: Array.from({ length: a.inputs }, (_, index) => {
      const v = vector(index, a.dimensions)
      return { object: 'embedding', index, embedding: a.asks.base64 ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v }
    }),
    model: a.model,
    ...(a.usage ? { usage: { prompt_tokens: a.usage.input, total_tokens: a.usage.input } } : {}),
  }),
  frames: () => [],
  streamError: (message) => `data: ${JSON.stringify({ error: { message } })}\n\n`,
  errorBody: (e) => ({ error: { message: errorMessage(e), type: e.status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } }),
}
