// Independent readers of what a recorded upstream answer says (text, tool calls, output tokens)
// and of what a client of each protocol sees — so translation tests compare the two without
// going through the gateway's own mappers.
import { SseParser } from '../../src/lib/sse/parse.ts'

export type Proto = 'openai-chat' | 'anthropic-messages' | 'openai-responses'
export type Inbound = 'chat' | 'messages' | 'responses'

export interface View {
  text: string
  tools: { name: string; args: unknown }[]
  reasoning: string
  /** Terminal signal normalised across protocols: end, max_tokens, tool_use. */
  stop: string
  /** Cache-read input tokens as reported. */
  cached: number
}

const CHAT_STOP: Record<string, string> = { length: 'max_tokens', tool_calls: 'tool_use', stop: 'end' }
const ANTHROPIC_STOP: Record<string, string> = { max_tokens: 'max_tokens', tool_use: 'tool_use', end_turn: 'end' }

const events = (sse: string) =>
  new SseParser()
    .push(sse.endsWith('\n\n') ? sse : sse + '\n\n')
    .filter((e) => e.data !== '[DONE]')
    .map((e) => JSON.parse(e.data))
const parseArgs = (a: unknown) => (typeof a === 'string' ? JSON.parse(a || '{}') : (a ?? {}))

/** What an upstream's JSON answer says. */
export function upstreamJsonView(p: Proto, j: any): View {
  if (p === 'openai-chat') {
    const m = j.choices[0].message
    const tools = (m.tool_calls ?? []).map((t: any) => ({ name: t.function.name, args: parseArgs(t.function.arguments) }))
    return {
      text: m.content ?? '',
      tools,
      reasoning: m.reasoning_content ?? '',
      stop: tools.length ? 'tool_use' : (CHAT_STOP[j.choices[0].finish_reason] ?? j.choices[0].finish_reason),
      cached: j.usage?.prompt_tokens_details?.cached_tokens ?? 0,
    }
  }
  if (p === 'anthropic-messages')
    return {
      text: j.content
        .filter((b: any) => b.type === 'text')
        .map((b: any) => b.text)
        .join(''),
      tools: j.content.filter((b: any) => b.type === 'tool_use').map((b: any) => ({ name: b.name, args: b.input })),
      reasoning: j.content
        .filter((b: any) => b.type === 'thinking')
        .map((b: any) => b.thinking)
        .join(''),
      stop: ANTHROPIC_STOP[j.stop_reason] ?? j.stop_reason,
      cached: j.usage?.cache_read_input_tokens ?? 0,
    }
  return responsesView(j)
}

function responsesView(j: any): View {
  const out = j.output ?? []
  const tools = out.filter((i: any) => i.type === 'function_call').map((i: any) => ({ name: i.name, args: parseArgs(i.arguments) }))
  return {
    text: out
      .filter((i: any) => i.type === 'message')
      .flatMap((i: any) => i.content.filter((c: any) => c.type === 'output_text').map((c: any) => c.text))
      .join(''),
    tools,
    reasoning: out
      .filter((i: any) => i.type === 'reasoning')
      .map((i: any) => (i.summary ?? []).map((s: any) => s.text).join('\n'))
      .join(''),
    stop: j.status === 'incomplete' ? 'max_tokens' : tools.length ? 'tool_use' : 'end',
    cached: j.usage?.input_tokens_details?.cached_tokens ?? 0,
  }
}

/** What an upstream's SSE stream says. */
export function upstreamStreamView(p: Proto, sse: string): View {
  const evs = events(sse)
  if (p === 'openai-chat') {
    let text = ''
    let reasoning = ''
    let finish = ''
    let cached = 0
    const tools = new Map<number, { name: string; args: string }>()
    for (const e of evs) {
      if (e.usage) cached = e.usage.prompt_tokens_details?.cached_tokens ?? 0
      for (const c of e.choices ?? []) {
        text += c.delta?.content ?? ''
        reasoning += c.delta?.reasoning_content ?? ''
        if (c.finish_reason) finish = c.finish_reason
        for (const t of c.delta?.tool_calls ?? []) {
          const cur = tools.get(t.index) ?? { name: '', args: '' }
          tools.set(t.index, { name: cur.name + (t.function?.name ?? ''), args: cur.args + (t.function?.arguments ?? '') })
        }
      }
    }
    const calls = [...tools.values()].map((t) => ({ name: t.name, args: parseArgs(t.args) }))
    return { text, tools: calls, reasoning, stop: calls.length ? 'tool_use' : (CHAT_STOP[finish] ?? finish), cached }
  }
  if (p === 'anthropic-messages') {
    let text = ''
    let reasoning = ''
    let stop = ''
    let cached = 0
    const tools: { name: string; args: string }[] = []
    const byIndex = new Map<number, { name: string; args: string }>()
    for (const e of evs) {
      if (e.type === 'content_block_start' && e.content_block.type === 'tool_use') {
        const t = { name: e.content_block.name, args: '' }
        tools.push(t)
        byIndex.set(e.index, t)
      }
      if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') text += e.delta.text
      if (e.type === 'content_block_delta' && e.delta.type === 'thinking_delta') reasoning += e.delta.thinking
      if (e.type === 'message_start') cached = e.message.usage?.cache_read_input_tokens ?? 0
      if (e.type === 'message_delta') stop = e.delta.stop_reason
      // message_delta's usage is cumulative; when it carries cache fields they are final.
      if (e.type === 'message_delta' && typeof e.usage?.cache_read_input_tokens === 'number') cached = e.usage.cache_read_input_tokens
      if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta') byIndex.get(e.index)!.args += e.delta.partial_json
    }
    return {
      text,
      tools: tools.map((t) => ({ name: t.name, args: parseArgs(t.args) })),
      reasoning,
      stop: ANTHROPIC_STOP[stop] ?? stop,
      cached,
    }
  }
  const done = evs.find((e) => e.type === 'response.completed' || e.type === 'response.incomplete')
  return responsesView(done.response)
}

/** What a client of `inbound` sees in a JSON answer. */
export function clientJsonView(inbound: Inbound, j: any): View {
  return upstreamJsonView(inbound === 'chat' ? 'openai-chat' : inbound === 'messages' ? 'anthropic-messages' : 'openai-responses', j)
}

/** What a client of `inbound` sees in a stream (its own protocol's events). */
export function clientStreamView(inbound: Inbound, sse: string): View {
  return upstreamStreamView(inbound === 'chat' ? 'openai-chat' : inbound === 'messages' ? 'anthropic-messages' : 'openai-responses', sse)
}

/** Output tokens an upstream answer reports (JSON or the last usage in a stream). */
export function upstreamOutputTokens(p: Proto, body: string, stream: boolean): number {
  const objs = stream ? events(body) : [JSON.parse(body)]
  let n = -1
  for (const o of objs) {
    const u = p === 'openai-chat' ? o.usage : p === 'anthropic-messages' ? (o.usage ?? o.message?.usage) : (o.usage ?? o.response?.usage)
    if (u) n = p === 'openai-chat' ? u.completion_tokens : u.output_tokens
  }
  return n
}
