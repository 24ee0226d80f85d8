// The responses spoke: POST /v1/responses as the /v1 pipeline sees it. The gateway is
// stateless: a previous_response_id or conversation cannot be honoured and gets a clear 400.
import { GatewayError } from '../../core/errors.ts'
import { fromResponsesUsage } from '../../core/usage.ts'
import type { CreditDisplay } from '../common/credit-svc.ts'
import { bodyParser } from '../common/parse.ts'
import type { Spoke } from '../spoke.ts'
import { decodeResponses, responsesPromptChars } from './decode.ts'
import { encodeResponse } from './encode.ts'
import { responsesErrorBody } from './error.ts'
import { publicResponse, responsesTee } from './passthrough.ts'
import { ResponsesRequest } from './schema.ts'
import { responsesStreamEncoder } from './stream-encoder.ts'
import { responsesSvc } from './svc.ts'

const validate = bodyParser(ResponsesRequest, 'Invalid request: ')

const stateless = (param: string) =>
  new GatewayError(
    'BAD_REQUEST',
    `${param} is not supported: this gateway is stateless. Resend the conversation in \`input\` (with store: false).`,
    { param },
  )

export function responsesSpoke(display: CreditDisplay): Spoke<ResponsesRequest> {
  return {
    name: 'responses',
    kind: 'chat',
    native: 'openai-responses',
    idPrefix: 'resp',
    idHeaders: ['x-request-id'],
    parse(raw) {
      const b = validate(raw)
      if (b.previous_response_id) throw stateless('previous_response_id')
      const c = (b as { conversation?: unknown }).conversation
      if (c !== undefined && c !== null) throw stateless('conversation')
      return b
    },
    model: (b) => b.model,
    stream: (b) => b.stream === true,
    estimateInput: (b) => ({ promptChars: responsesPromptChars(b), maxTokens: b.max_output_tokens ?? undefined, choices: 1 }),
    decode: decodeResponses,
    errorBody: responsesErrorBody,
    passHeaders: () => ({}),
    encode: (r, ctx) => JSON.stringify(encodeResponse(r, { id: ctx.publicId, model: ctx.slug, createdAt: ctx.created })),
    passthrough: (_text, parsed, ctx) => ({
      body: JSON.stringify(publicResponse(parsed, { id: ctx.publicId, model: ctx.slug })),
      usage: fromResponsesUsage(parsed.usage),
    }),
    svc: (facts) => responsesSvc(display, facts),
    streamEncoder: (ctx) => responsesStreamEncoder({ id: ctx.publicId, model: ctx.slug, createdAt: ctx.created }),
    tee: (ctx) => responsesTee({ id: ctx.publicId, model: ctx.slug }),
  }
}
