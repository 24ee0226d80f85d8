// The fake's OpenAI chat-completions wire: a chat.completion, or chunks (role, reasoning_content,
// text, tool-call fragments, finish, usage when `stream_options.include_usage`, [DONE]); a failed
// stream ends with an `error` chunk, as OpenRouter's do. The same wire answers Azure OpenAI's
// deployment paths (`…/openai/deployments/{deployment}/chat/completions?api-version=…`, where the
// deployment, not the body's model, names the model, as on Azure) and Vertex's OpenAI-compatible
// endpoint (`…/endpoints/openapi/chat/completions`, model `google/…`).
import { type Answer, errorMessage, type Frame, lastUserText, sseData, stringOr, type Wire, endingIn, segment } from './wire.ts'

const usageOf = (a: Answer) =>
  a.usage && {
    prompt_tokens: a.usage.input,
    completion_tokens: a.usage.output,
    total_tokens: a.usage.input + a.usage.output,
    prompt_tokens_details: { cached_tokens: a.usage.cacheRead ?? 0 },
    completion_tokens_details: { reasoning_tokens: a.usage.reasoning ?? 0 },
  }

const azureDeployment = (path: string) => {
  const m = /\/deployments\/([^/]+)\/chat\/completions$/.exec(path)
  return m ? segment(m[1]!) : undefined
}

const finishOf = (a: Answer) => (a.toolCalls.length ? 'tool_calls' : 'stop')

export const openaiChat: Wire = {
  name: 'openai-chat',
  ...endingIn('/chat/completions'),
  read: (body, path) => ({
    model: azureDeployment(path) ?? stringOr(body?.model, ''),
    stream: body?.stream === true,
    prompt: lastUserText(body?.messages),
    inputText: JSON.stringify(body?.messages ?? []),
  }),
  json: (a) => ({
    id: a.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: a.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: a.text || (a.toolCalls.length ? null : ''),
          ...(a.reasoning ? { reasoning_content: a.reasoning } : {}),
          ...(a.toolCalls.length
            ? { tool_calls: a.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
            : {}),
        },
        finish_reason: finishOf(a),
      },
    ],
    ...(a.usage ? { usage: usageOf(a) } : {}),
  }),
  frames(a) {
    const created = Math.floor(Date.now() / 1000)
    const chunk = (delta: object, finish: string | null, chars?: number): Frame => ({
      data: sseData({
        id: a.id,
        object: 'chat.completion.chunk',
        created,
        model: a.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      }),
      chars,
    })
    const frames = [chunk({ role: 'assistant', content: '' }, null)]
    if (a.reasoning) frames.push(chunk({ reasoning_content: a.reasoning }, null))
    for (const p of a.pieces) frames.push(chunk({ content: p }, null, p.length))
    a.toolCalls.forEach((c, index) => {
      frames.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }, null))
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: c.arguments } }] }, null))
    })
    frames.push(chunk({}, finishOf(a)))
    if (a.usage && a.asks.streamUsage)
      frames.push({ data: sseData({ id: a.id, object: 'chat.completion.chunk', created, model: a.model, choices: [], usage: usageOf(a) }) })
    frames.push({ data: 'data: [DONE]\n\n' })
    return frames
  },
  streamError: (message, status) => sseData({ error: { message, code: status === 429 ? 'rate_limit_exceeded' : 'server_error' } }),
  errorBody: (e) => ({
    error: {
      message: errorMessage(e),
      type: e.status === 429 ? 'rate_limit_exceeded' : 'server_error',
      code: null,
    },
  }),
}
