// The messages spoke: Anthropic's POST /v1/messages as the /v1 pipeline sees it.
import { fromAnthropicUsage } from '../../core/usage.ts'
import type { CreditDisplay } from '../common/credit-svc.ts'
import { bodyParser, invalidBody } from '../common/parse.ts'
import type { Spoke } from '../spoke.ts'
import { decodeMessages, messagesPromptChars } from './decode.ts'
import { encodeMessage } from './encode.ts'
import { messagesErrorBody } from './error.ts'
import { messagesTee } from './passthrough.ts'
import { MessagesRequest, rolesIssue } from './schema.ts'
import { messagesStreamEncoder } from './stream-encoder.ts'
import { messagesSvc } from './svc.ts'

const validate = bodyParser(MessagesRequest)

const BETA_NAME = /^[a-z0-9][a-z0-9._-]*$/i

/**
 * The client's `anthropic-beta` features an Anthropic upstream is asked for, comma-separated, or
 * undefined when none is left (docs/api.md "Messages"). Cleaned, never refused: blank, malformed
 * and repeated names are left out, and so are `oauth-*` features, which declare that the request
 * carries the caller's own OAuth token — the upstream call carries the gateway's key, so the
 * route cannot honour them (Claude Code sends one through gateways too; some upstreams refuse it).
 */
export function forwardedBetas(header: string | null): string | undefined {
  if (!header) return undefined
  const names = [...new Set(header.split(',').map((s) => s.trim()))].filter(
    (name) => BETA_NAME.test(name) && !name.toLowerCase().startsWith('oauth-'),
  )
  return names.length ? names.join(',') : undefined
}

/** Headers an Anthropic upstream reads from the client (also forwarded by count_tokens). */
export function anthropicPassHeaders(headers: Headers): Record<string, string> {
  const version = headers.get('anthropic-version')
  const beta = forwardedBetas(headers.get('anthropic-beta'))
  return { ...(version ? { 'anthropic-version': version } : {}), ...(beta ? { 'anthropic-beta': beta } : {}) }
}

/** The Anthropic SDK reads `request-id` (its `_request_id`); other clients read x-request-id. */
export const MESSAGES_ID_HEADERS = ['x-request-id', 'request-id'] as const

export function messagesSpoke(display: CreditDisplay): Spoke<MessagesRequest> {
  return {
    name: 'messages',
    kind: 'chat',
    native: 'anthropic-messages',
    idPrefix: 'req',
    idHeaders: MESSAGES_ID_HEADERS,
    parse(raw) {
      const b = validate(raw)
      const issue = rolesIssue(b.messages)
      if (issue) throw invalidBody([issue])
      return b
    },
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
