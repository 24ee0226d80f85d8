// Chat completion JSON → canonical response on recorded answers: parts, stop reason and usage
// (prompt_tokens includes cached tokens, which are billed apart).
import { describe, expect, test } from 'bun:test'
import { parseChatResponse } from '../../../src/providers/openai-chat/response.ts'
import { fixtureJson } from '../../helpers/fixtures.ts'
import { upstreamJsonView } from '../../translation/fixture-views.ts'

const answer = (file: string) => fixtureJson('openai-chat', file)

describe('openai-chat response', () => {
  test('two tool calls, in order, with their ids and argument text; stop tool_use', () => {
    const r = parseChatResponse(answer('json-tool-calls-two.json'))
    expect(r.content).toEqual([
      { type: 'tool_call', id: 'call_v6LacIrChvs6ITVpIZqy5tFc', name: 'secret_retrieval_tool', arguments: '{"password": "mellon"}' },
      { type: 'tool_call', id: 'call_onyWzk4mLTGKzW9cthmf4Llq', name: 'secret_retrieval_tool', arguments: '{"password": "radiance"}' },
    ])
    expect(r.stopReason).toBe('tool_use')
    expect(r.id).toBe('chatcmpl-CRkQLoUbXLK7jHgn0ahxbdvo6XWOD')
  })

  test('cached prompt tokens are cache reads, not input', () => {
    const r = parseChatResponse(answer('json-cached-tokens.json'))
    expect(r.usage).toEqual({ inputTokens: 79, outputTokens: 117, cacheReadTokens: 3584, cacheWriteTokens: 0, reasoningTokens: 0 })
  })

  test("DeepSeek's reasoning_content is a reasoning part before the text; reasoning tokens are reported", () => {
    const json = answer('json-reasoning-content-deepseek.json')
    const view = upstreamJsonView('openai-chat', json)
    const r = parseChatResponse(json)
    expect(r.content).toEqual([
      { type: 'reasoning', text: view.reasoning, origin: 'openai-chat' },
      { type: 'text', text: view.text },
    ])
    expect(r.stopReason).toBe('end')
    expect(r.usage?.reasoningTokens).toBe(315)
  })
})
