// The embeddings spoke: POST /v1/embeddings as the /v1 pipeline sees it (docs/api.md
// "Embeddings"). Served only by pass-through to openai-chat gateways (their /embeddings path;
// the catalog routes embedding models nowhere else), so it has no canonical form, no translated
// answer and no stream. Its error envelope and svc are OpenAI's, the chat spoke's (registry.ts).
import { GatewayError } from '../../core/errors.ts'
import { bodyParser, invalidBody } from '../common/parse.ts'
import type { Spoke } from '../spoke.ts'
import { publicEmbeddings, readEmbeddingsAnswer } from './passthrough.ts'
import { EmbeddingsRequest, inputChars, inputsOf, MAX_INPUTS } from './schema.ts'

const validate = bodyParser(EmbeddingsRequest)

/** The spoke's members that only a translated or streamed call would use. */
const passthroughOnly = (): never => {
  throw new GatewayError('BAD_REQUEST', 'Embeddings are served only through openai-chat gateways.', { param: 'model' })
}

export const embeddingsSpoke = (openAi: Pick<Spoke<unknown>, 'errorBody' | 'svc'>): Spoke<EmbeddingsRequest> => ({
  name: 'embeddings',
  kind: 'embedding',
  native: 'openai-chat',
  idPrefix: 'req',
  idHeaders: ['x-request-id'],
  upstream: { path: '/embeddings', read: readEmbeddingsAnswer },
  parse(raw) {
    const b = validate(raw)
    const count = inputsOf(b.input).length
    if (count > MAX_INPUTS) throw invalidBody([{ path: 'input', message: `at most ${MAX_INPUTS} inputs per call (got ${count})` }])
    return b
  },
  model: (b) => b.model,
  stream: () => false,
  estimateInput(b) {
    const chars = inputChars(inputsOf(b.input))
    // An embedding has no output tokens: the reservation is the input's alone.
    return { promptChars: chars.total, fitChars: chars.longest, maxTokens: 0, choices: 1 }
  },
  decode: passthroughOnly,
  errorBody: openAi.errorBody,
  passHeaders: () => ({}),
  encode: passthroughOnly,
  passthrough: (_text, parsed, ctx) => publicEmbeddings(parsed, ctx.slug),
  svc: openAi.svc,
  streamEncoder: passthroughOnly,
  tee: passthroughOnly,
})
