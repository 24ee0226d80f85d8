// The chat-completions protocol as the call pipeline sees it.
import { GatewayError } from '../core/errors.ts'
import { compile, type Issue } from '../lib/validate.ts'
import { decodeChat } from '../protocols/chat/decode.ts'
import { encodeChat } from '../protocols/chat/encode.ts'
import { chatErrorBody } from '../protocols/chat/error.ts'
import { chatTee } from '../protocols/chat/passthrough-stream.ts'
import { publicJson } from '../protocols/chat/public-identity.ts'
import { ChatRequest, promptChars, requestedMaxTokens } from '../protocols/chat/schema.ts'
import { chatStreamEncoder } from '../protocols/chat/stream-encode.ts'
import { encodeChatSvc } from '../protocols/chat/svc.ts'
import { fromOpenAiChatUsage } from '../core/usage.ts'
import type { Inbound } from './inbound.ts'

const validate = compile(ChatRequest)
const invalid = (issues: Issue[]) =>
  new GatewayError('VALIDATION_FAILED', `${issues[0]!.path}: ${issues[0]!.message}`, { issues, param: issues[0]!.path })

export const chatInbound: Inbound<ChatRequest> = {
  name: 'chat',
  native: 'openai-chat',
  idPrefix: 'req',
  validate,
  invalid,
  check: (b) => {
    // docs/api.md "Chat completions": content is required; only an assistant turn may omit it (tool calls).
    const i = b.messages.findIndex((m) => m.role !== 'assistant' && m.content == null)
    if (i !== -1) throw invalid([{ path: `messages[${i}].content`, message: 'Expected required property' }])
  },
  model: (b) => b.model,
  stream: (b) => b.stream === true,
  estimateInput: (b) => ({ promptChars: promptChars(b), maxTokens: requestedMaxTokens(b), choices: b.n ?? 1 }),
  decode: decodeChat,
  renderError: chatErrorBody,
  passHeaders: () => ({}),
  encode: (r, ctx) => JSON.stringify(encodeChat(r, `chatcmpl-${ctx.requestId.slice(4)}`, ctx.slug, ctx.created)),
  passthroughJson: (text, parsed, ctx) => publicJson(text, parsed, ctx.slug),
  usageOf: (parsed) => fromOpenAiChatUsage(parsed.usage),
  svc: (costMicros, usageSource, latencyMs, gateway, upstreamRequestId) =>
    encodeChatSvc({ costMicros, latencyMs, gateway, upstreamRequestId, usageSource }),
  streamEncoder: (ctx) => chatStreamEncoder(`chatcmpl-${ctx.requestId.slice(4)}`, ctx.slug, ctx.created),
  tee: (ctx) => chatTee(ctx.slug),
}
