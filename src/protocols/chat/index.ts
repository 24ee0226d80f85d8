// The chat-completions spoke: POST /v1/chat/completions as the /v1 pipeline sees it.
import { fromOpenAiChatUsage } from '../../core/usage.ts'
import { bodyParser, invalidBody } from '../common/parse.ts'
import type { Spoke } from '../spoke.ts'
import { decodeChat } from './decode.ts'
import { encodeChat } from './encode.ts'
import { chatErrorBody } from './error.ts'
import { chatTee, publicJson } from './passthrough.ts'
import { ChatRequest, promptChars, requestedMaxTokens } from './schema.ts'
import { chatStreamEncoder } from './stream-encoder.ts'
import { encodeChatSvc } from './svc.ts'

const validate = bodyParser(ChatRequest)

export const chatSpoke: Spoke<ChatRequest> = {
  name: 'chat',
  kind: 'chat',
  native: 'openai-chat',
  idPrefix: 'req',
  idHeaders: ['x-request-id'],
  parse(raw) {
    const b = validate(raw)
    // docs/api.md "Chat completions": content is required; only an assistant turn may omit it (tool calls).
    const i = b.messages.findIndex((m) => m.role !== 'assistant' && m.content == null)
    if (i !== -1) throw invalidBody([{ path: `messages[${i}].content`, message: 'Expected required property' }])
    return b
  },
  model: (b) => b.model,
  stream: (b) => b.stream === true,
  estimateInput: (b) => ({ promptChars: promptChars(b), maxTokens: requestedMaxTokens(b), choices: b.n ?? 1 }),
  decode: decodeChat,
  errorBody: chatErrorBody,
  passHeaders: () => ({}),
  encode: (r, ctx) => JSON.stringify(encodeChat(r, `chatcmpl-${ctx.requestId.slice(4)}`, ctx.slug, ctx.created)),
  passthrough: (text, parsed, ctx) => ({ body: publicJson(text, parsed, ctx.slug), usage: fromOpenAiChatUsage(parsed.usage) }),
  svc: encodeChatSvc,
  streamEncoder: (ctx) => chatStreamEncoder(`chatcmpl-${ctx.requestId.slice(4)}`, ctx.slug, ctx.created),
  tee: (ctx) => chatTee(ctx.slug),
}
