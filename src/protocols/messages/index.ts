// The messages spoke: Anthropic's POST /v1/messages as the /v1 pipeline sees it.
import { fromAnthropicUsage } from '../../core/usage.ts'
import type { CreditDisplay } from '../common/credit-svc.ts'
import { bodyParser } from '../common/parse.ts'
import type { Spoke } from '../spoke.ts'
import { decodeMessages, messagesPromptChars } from './decode.ts'
import { encodeMessage } from './encode.ts'
import { messagesErrorBody } from './error.ts'
import { messagesTee } from './passthrough.ts'
import { MessagesRequest } from './schema.ts'
import { messagesStreamEncoder } from './stream-encoder.ts'
import { messagesSvc } from './svc.ts'

const FORWARDED = ['anthropic-version', 'anthropic-beta'] as const

/** Headers an Anthropic upstream reads from the client (also forwarded by count_tokens). */
export const anthropicPassHeaders = (headers: Headers): Record<string, string> =>
  Object.fromEntries(FORWARDED.flatMap((h) => (headers.get(h) ? [[h, headers.get(h)!]] : [])))

export function messagesSpoke(display: CreditDisplay): Spoke<MessagesRequest> {
  return {
    name: 'messages',
    native: 'anthropic-messages',
    idPrefix: 'req',
    parse: bodyParser(MessagesRequest),
    model: (b) => b.model,
    stream: (b) => b.stream === true,
    estimateInput: (b) => ({ promptChars: messagesPromptChars(b), maxTokens: b.max_tokens, choices: 1 }),
    decode: decodeMessages,
    errorBody: messagesErrorBody,
    passHeaders: anthropicPassHeaders,
    encode: (r, ctx) => JSON.stringify(encodeMessage(r, `msg_${ctx.requestId.slice(4)}`, ctx.slug)),
    passthrough: (_text, parsed, ctx) => ({
      body: JSON.stringify({ ...parsed, model: ctx.slug }),
      usage: fromAnthropicUsage(parsed.usage),
    }),
    svc: (facts) => messagesSvc(display, facts),
    streamEncoder: (ctx) => messagesStreamEncoder(`msg_${ctx.requestId.slice(4)}`, ctx.slug),
    tee: (ctx) => messagesTee(ctx.slug),
  }
}
