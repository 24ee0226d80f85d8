// Anthropic's messages protocol as the call pipeline sees it.
import type { Config } from '../config.ts'
import { GatewayError } from '../core/errors.ts'
import { fromAnthropicUsage } from '../core/usage.ts'
import { compile } from '../lib/validate.ts'
import { decodeMessages, messagesPromptChars } from '../protocols/messages/decode.ts'
import { encodeMessage } from '../protocols/messages/encode.ts'
import { messagesErrorBody } from '../protocols/messages/error.ts'
import { messagesTee } from '../protocols/messages/passthrough.ts'
import { MessagesRequest } from '../protocols/messages/schema.ts'
import { messagesStreamEncoder } from '../protocols/messages/stream-encode.ts'
import { creditSvc } from './credit-svc.ts'
import type { Inbound } from './inbound.ts'

const validate = compile(MessagesRequest)
const FORWARDED = ['anthropic-version', 'anthropic-beta'] as const

export function messagesInbound(config: Config): Inbound<MessagesRequest> {
  return {
    name: 'messages',
    native: 'anthropic-messages',
    idPrefix: 'req',
    validate,
    invalid: (issues) =>
      new GatewayError('VALIDATION_FAILED', `${issues[0]!.path}: ${issues[0]!.message}`, { issues, param: issues[0]!.path }),
    model: (b) => b.model,
    stream: (b) => b.stream === true,
    estimateInput: (b) => ({ promptChars: messagesPromptChars(b), maxTokens: b.max_tokens, choices: 1 }),
    decode: decodeMessages,
    renderError: messagesErrorBody,
    passHeaders: (req) => Object.fromEntries(FORWARDED.flatMap((h) => (req.headers.get(h) ? [[h, req.headers.get(h)!]] : []))),
    encode: (r, ctx) => JSON.stringify(encodeMessage(r, `msg_${ctx.requestId.slice(4)}`, ctx.slug)),
    passthroughJson: (_text, parsed, ctx) => JSON.stringify({ ...parsed, model: ctx.slug }),
    usageOf: (parsed) => fromAnthropicUsage(parsed.usage),
    svc: (cost, _source, latencyMs, _gw, _up, ctx) => creditSvc(config, cost, ctx.serviceMode, latencyMs),
    streamEncoder: (ctx) => messagesStreamEncoder(`msg_${ctx.requestId.slice(4)}`, ctx.slug),
    tee: (ctx) => messagesTee(ctx.slug),
  }
}
