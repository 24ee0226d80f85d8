// One call through any inbound protocol (chat, messages, responses), JSON or stream, read into the
// same view: the status, the answer's text, reasoning and tool calls, and whether a stream ended
// with an error event — so one assertion covers every protocol.

export const INBOUND = ['chat', 'messages', 'responses'] as const
export type Inbound = (typeof INBOUND)[number]

export interface CallView {
  status: number
  text: string
  reasoning: string
  tools: { name: string; arguments: string }[]
  /** A stream's error event (chat `error` chunk, messages `error`, responses `error` / `response.failed`). */
  streamError: boolean
  /** The JSON error envelope's body, or the raw stream. */
  raw: string
  headers: Headers
}

const PATHS: Record<Inbound, string> = { chat: '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses' }

function body(p: Inbound, model: string, stream: boolean, content: string) {
  if (p === 'responses') return { model, input: content, stream }
  if (p === 'messages') return { model, max_tokens: 200, messages: [{ role: 'user', content }], stream }
  return { model, messages: [{ role: 'user', content }], stream, ...(stream ? { stream_options: { include_usage: true } } : {}) }
}

function readJson(p: Inbound, j: any): Pick<CallView, 'text' | 'reasoning' | 'tools'> {
  if (p === 'chat') {
    const m = j.choices?.[0]?.message ?? {}
    return {
      text: m.content ?? '',
      reasoning: m.reasoning_content ?? '',
      tools: (m.tool_calls ?? []).map((c: any) => ({ name: c.function.name, arguments: c.function.arguments })),
    }
  }
  if (p === 'messages') {
    const blocks: any[] = j.content ?? []
    return {
      text: blocks
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join(''),
      reasoning: blocks
        .filter((b) => b.type === 'thinking')
        .map((b) => b.thinking)
        .join(''),
      tools: blocks.filter((b) => b.type === 'tool_use').map((b) => ({ name: b.name, arguments: JSON.stringify(b.input) })),
    }
  }
  const items: any[] = j.output ?? []
  return {
    text: items.flatMap((i) => (i.type === 'message' ? i.content.map((c: any) => c.text ?? '') : [])).join(''),
    reasoning: items.flatMap((i) => (i.type === 'reasoning' ? (i.summary ?? []).map((s: any) => s.text) : [])).join(''),
    tools: items.filter((i) => i.type === 'function_call').map((i) => ({ name: i.name, arguments: i.arguments })),
  }
}

function readStream(p: Inbound, raw: string): Pick<CallView, 'text' | 'reasoning' | 'tools' | 'streamError'> {
  const out = { text: '', reasoning: '', tools: [] as CallView['tools'], streamError: false }
  const datas = raw
    .split('\n\n')
    .map((f) => /^data: (.*)$/m.exec(f)?.[1])
    .filter((d): d is string => d !== undefined && d !== '[DONE]')
    .map((d) => JSON.parse(d))
  for (const d of datas) {
    if (p === 'chat') {
      if (d.error) out.streamError = true
      const delta = d.choices?.[0]?.delta ?? {}
      out.text += delta.content ?? ''
      out.reasoning += delta.reasoning_content ?? ''
      for (const c of delta.tool_calls ?? []) {
        if (c.function?.name) out.tools.push({ name: c.function.name, arguments: '' })
        if (c.function?.arguments) out.tools[out.tools.length - 1]!.arguments += c.function.arguments
      }
    } else if (p === 'messages') {
      if (d.type === 'error') out.streamError = true
      if (d.type === 'content_block_start' && d.content_block.type === 'tool_use')
        out.tools.push({ name: d.content_block.name, arguments: '' })
      if (d.type === 'content_block_delta') {
        out.text += d.delta.text ?? ''
        out.reasoning += d.delta.thinking ?? ''
        if (d.delta.partial_json) out.tools[out.tools.length - 1]!.arguments += d.delta.partial_json
      }
    } else {
      if (d.type === 'error' || d.type === 'response.failed') out.streamError = true
      if (d.type === 'response.output_text.delta') out.text += d.delta
      if (d.type === 'response.reasoning_summary_text.delta' || d.type === 'response.reasoning_text.delta') out.reasoning += d.delta
      if (d.type === 'response.output_item.done' && d.item.type === 'function_call')
        out.tools.push({ name: d.item.name, arguments: d.item.arguments })
    }
  }
  return out
}

/** Posts one call and reads it whole (a cut stream is read up to the cut). */
export async function call(origin: string, key: string, p: Inbound, model: string, stream: boolean, content = 'Hello'): Promise<CallView> {
  const res = await fetch(`${origin}${PATHS[p]}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body(p, model, stream, content)),
  })
  let raw = ''
  try {
    raw = await res.text()
  } catch {}
  const base = { status: res.status, raw, headers: res.headers, streamError: false }
  if (res.status !== 200) return { ...base, text: '', reasoning: '', tools: [] }
  if (stream) return { ...base, ...readStream(p, raw) }
  return { ...base, ...readJson(p, JSON.parse(raw)) }
}
