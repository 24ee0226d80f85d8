// Request to an OpenAI-chat upstream. The caller's body passes through with unknown fields
// intact; only `model` (the upstream name) and, for streams, include_usage change: the gateway
// always asks for usage so that billing uses real tokens (docs/api.md "Chat completions").

export function openAiChatBody(body: Record<string, unknown>, upstreamModel: string, stream: boolean): string {
  const out: Record<string, unknown> = { ...body, model: upstreamModel }
  if (stream) {
    const opts = body.stream_options && typeof body.stream_options === 'object' ? body.stream_options : {}
    out.stream_options = { ...opts, include_usage: true }
  }
  return JSON.stringify(out)
}

export function openAiHeaders(apiKey: string | undefined): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  if (apiKey) h.authorization = `Bearer ${apiKey}`
  return h
}

export const OPENAI_CHAT_PATH = '/chat/completions'
