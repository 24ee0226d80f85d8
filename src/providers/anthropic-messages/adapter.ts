// Anthropic messages upstream through the canonical model. Thinking blocks go back only when
// they came from an Anthropic upstream (their signatures are Anthropic's); tool arguments cross
// as JSON text ↔ `input` objects.
import type { CEvent, CMessage, CPart, CRequest, CResponse } from '../../core/canonical.ts'
import { fromAnthropicUsage, type Usage } from '../../core/usage.ts'
import { safeJsonObject } from '../../lib/json.ts'
import { carriesOpenAi } from '../../core/reasoning-carrier.ts'
import type { UpstreamAdapter } from '../adapter.ts'
import { fromAnthropicStop } from '../../core/stop-reasons.ts'

const EFFORT_BUDGET = { low: 1_024, medium: 4_096, high: 16_384 } as const

function block(p: CPart): Record<string, unknown> | undefined {
  switch (p.type) {
    case 'text':
      return p.text ? { type: 'text', text: p.text } : undefined
    case 'image':
      return p.data ? { type: 'image', source: { type: 'base64', media_type: p.mediaType ?? 'image/png', data: p.data } } : { type: 'image', source: { type: 'url', url: p.url } }
    case 'tool_call':
      return { type: 'tool_use', id: p.id, name: p.name, input: safeJsonObject(p.arguments) }
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: p.toolCallId, content: p.content, ...(p.isError ? { is_error: true } : {}) }
    case 'reasoning':
      // Another vendor's reasoning, or a thinking block without its signature, would be refused.
      if (p.origin !== 'anthropic-messages' || (p.redacted === undefined && !p.signature)) return undefined
      return p.redacted !== undefined ? { type: 'redacted_thinking', data: p.redacted } : { type: 'thinking', thinking: p.text, signature: p.signature ?? '' }
  }
}

/** Anthropic wants alternating roles, tool results first in their user turn. */
function anthropicMessages(messages: CMessage[]): Record<string, unknown>[] {
  const out: { role: string; content: Record<string, unknown>[] }[] = []
  for (const m of messages) {
    const blocks = m.content.map(block).filter((b): b is Record<string, unknown> => b !== undefined)
    if (m.role === 'user') blocks.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'))
    if (blocks.length === 0) continue
    const last = out.at(-1)
    if (last && last.role === m.role) last.content.push(...blocks)
    else out.push({ role: m.role, content: blocks })
  }
  return out
}

export const anthropicAdapter: UpstreamAdapter = {
  path: '/messages',
  headers(apiKey, pass) {
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'anthropic-version': pass['anthropic-version'] ?? '2023-06-01',
      ...(pass['anthropic-beta'] ? { 'anthropic-beta': pass['anthropic-beta'] } : {}),
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
    }
  },
  // The caller's own body, minus thinking blocks that carry another vendor's reasoning.
  passthroughBody(raw, model) {
    const messages = Array.isArray(raw.messages)
      ? raw.messages.map((m: any) => (Array.isArray(m?.content) && m.content.some(carriesOpenAi) ? { ...m, content: m.content.filter((b: any) => !carriesOpenAi(b)) } : m))
      : raw.messages
    return JSON.stringify({ ...raw, model, messages })
  },
  body(req, model, defaultMaxTokens) {
    const budget = req.reasoning ? (req.reasoning.budgetTokens ?? EFFORT_BUDGET[req.reasoning.effort ?? 'medium']) : undefined
    const maxTokens = Math.max(req.maxTokens ?? defaultMaxTokens, budget !== undefined ? budget + 1 : 1)
    const c = req.toolChoice
    return JSON.stringify({
      model,
      max_tokens: maxTokens,
      system: req.system,
      messages: anthropicMessages(req.messages),
      stream: req.stream || undefined,
      temperature: budget === undefined ? req.temperature : undefined,
      top_p: budget === undefined ? req.topP : undefined,
      top_k: req.topK,
      stop_sequences: req.stop,
      tools: req.tools?.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })),
      tool_choice:
        c === undefined || !req.tools
          ? undefined
          : c === 'auto'
            ? { type: 'auto', ...(req.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {}) }
            : c === 'required'
              ? { type: 'any' }
              : c === 'none'
                ? { type: 'none' }
                : { type: 'tool', name: c.name },
      thinking: budget !== undefined ? { type: 'enabled', budget_tokens: budget } : undefined,
    })
  },
  parseResponse(json): CResponse {
    const content: CPart[] = []
    for (const b of json.content ?? []) {
      if (b.type === 'text') content.push({ type: 'text', text: b.text ?? '' })
      else if (b.type === 'thinking') content.push({ type: 'reasoning', text: b.thinking ?? '', signature: b.signature, origin: 'anthropic-messages' })
      else if (b.type === 'redacted_thinking') content.push({ type: 'reasoning', text: '', redacted: b.data, origin: 'anthropic-messages' })
      else if (b.type === 'tool_use') content.push({ type: 'tool_call', id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) })
    }
    return { id: String(json.id ?? ''), content, stopReason: fromAnthropicStop(json.stop_reason), stopSequence: json.stop_sequence ?? undefined, usage: fromAnthropicUsage(json.usage) }
  },
  streamDecoder() {
    let usage: Usage | undefined
    let stop: { reason: unknown; sequence?: string } | undefined
    let stopped = false
    const toolIndex = new Map<number, number>()
    return {
      push(ev) {
        const data = JSON.parse(ev.data)
        const out: CEvent[] = []
        switch (data.type) {
          case 'message_start':
            usage = fromAnthropicUsage(data.message?.usage)
            break
          case 'content_block_start': {
            const b = data.content_block ?? {}
            if (b.type === 'tool_use') {
              const index = toolIndex.size
              toolIndex.set(data.index, index)
              out.push({ type: 'tool_call_start', index, id: b.id, name: b.name })
            } else if (b.type === 'text' && b.text) out.push({ type: 'text', text: b.text })
            else if (b.type === 'redacted_thinking') out.push({ type: 'reasoning_encrypted', data: b.data })
            break
          }
          case 'content_block_delta': {
            const d = data.delta ?? {}
            if (d.type === 'text_delta') out.push({ type: 'text', text: d.text })
            else if (d.type === 'thinking_delta') out.push({ type: 'reasoning', text: d.thinking })
            else if (d.type === 'signature_delta') out.push({ type: 'reasoning_signature', signature: d.signature })
            else if (d.type === 'input_json_delta' && d.partial_json) out.push({ type: 'tool_call_args', index: toolIndex.get(data.index) ?? 0, delta: d.partial_json })
            break
          }
          case 'message_delta': {
            const delta = fromAnthropicUsage({ ...usageBase(usage), ...data.usage })
            if (delta) {
              usage = delta
              out.push({ type: 'usage', usage: delta })
            }
            stop = { reason: data.delta?.stop_reason, sequence: data.delta?.stop_sequence ?? undefined }
            break
          }
          case 'message_stop':
            stopped = true
            break
          case 'error':
            out.push({ type: 'error', message: String(data.error?.message ?? 'upstream error') })
            break
        }
        return out
      },
      end() {
        if (!stop || !stopped) throw new Error('stream ended before message_stop')
        return [{ type: 'finish', stopReason: fromAnthropicStop(stop.reason), stopSequence: stop.sequence }]
      },
    }
  },
}

/** message_delta usage is cumulative but may omit input fields: start from message_start's. */
const usageBase = (u: Usage | undefined) =>
  u ? { input_tokens: u.inputTokens, output_tokens: u.outputTokens, cache_read_input_tokens: u.cacheReadTokens, cache_creation_input_tokens: u.cacheWriteTokens } : {}
