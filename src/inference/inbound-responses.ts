// The responses protocol as the call pipeline sees it. The gateway is stateless: a
// previous_response_id cannot be honoured and gets a clear 400.
import type { Config } from '../config.ts'
import { GatewayError } from '../core/errors.ts'
import { fromResponsesUsage } from '../core/usage.ts'
import { compile } from '../lib/validate.ts'
import { decodeResponses, responsesPromptChars } from '../protocols/responses/decode.ts'
import { encodeResponse } from '../protocols/responses/encode.ts'
import { responsesErrorBody } from '../protocols/responses/error.ts'
import { publicResponse, responsesTee } from '../protocols/responses/passthrough.ts'
import { ResponsesRequest } from '../protocols/responses/schema.ts'
import { responsesStreamEncoder } from '../protocols/responses/stream-encode.ts'
import { creditSvc } from './credit-svc.ts'
import type { Inbound } from './inbound.ts'

const validate = compile(ResponsesRequest)

export function responsesInbound(config: Config): Inbound<ResponsesRequest> {
  return {
    name: 'responses',
    native: 'openai-responses',
    idPrefix: 'resp',
    validate,
    invalid: (issues) =>
      new GatewayError('VALIDATION_FAILED', `Invalid request: ${issues[0]!.path}: ${issues[0]!.message}`, {
        issues,
        param: issues[0]!.path,
      }),
    check(b) {
      if (b.previous_response_id)
        throw new GatewayError(
          'BAD_REQUEST',
          'previous_response_id is not supported: this gateway is stateless. Resend the conversation in `input` (with store: false).',
          { param: 'previous_response_id' },
        )
      const c = (b as { conversation?: unknown }).conversation
      if (c !== undefined && c !== null)
        throw new GatewayError(
          'BAD_REQUEST',
          'conversation is not supported: this gateway is stateless. Resend the conversation in `input` (with store: false).',
          { param: 'conversation' },
        )
    },
    model: (b) => b.model,
    stream: (b) => b.stream === true,
    estimateInput: (b) => ({ promptChars: responsesPromptChars(b), maxTokens: b.max_output_tokens ?? undefined, choices: 1 }),
    decode: decodeResponses,
    renderError: responsesErrorBody,
    passHeaders: () => ({}),
    encode: (r, ctx) => JSON.stringify(encodeResponse(r, { id: ctx.publicId, model: ctx.slug, createdAt: ctx.created })),
    passthroughJson: (_text, parsed, ctx) => JSON.stringify(publicResponse(parsed, { id: ctx.publicId, model: ctx.slug })),
    usageOf: (parsed) => fromResponsesUsage(parsed.usage),
    svc: (cost, _source, latencyMs, _gw, _up, ctx) => creditSvc(config, cost, ctx.serviceMode, latencyMs),
    streamEncoder: (ctx) => responsesStreamEncoder({ id: ctx.publicId, model: ctx.slug, createdAt: ctx.created }),
    tee: (ctx) => responsesTee({ id: ctx.publicId, model: ctx.slug }),
  }
}
