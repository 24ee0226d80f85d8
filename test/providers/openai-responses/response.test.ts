// Response object → canonical response on recorded answers: output items map onto parts,
// reasoning keeps its id, an incomplete answer stops at max_tokens.
import { describe, expect, test } from 'bun:test'
import { parseResponsesResponse } from '../../../src/providers/openai-responses/response.ts'
import { fixtureJson } from '../../helpers/fixtures.ts'
import { upstreamJsonView } from '../../translation/fixture-views.ts'

const answer = (file: string) => fixtureJson('openai-responses', file)

describe('openai-responses response', () => {
  test('reasoning (summary parts joined by newlines) then text; reasoning tokens reported', () => {
    const json = answer('json-reasoning.json')
    const r = parseResponsesResponse(json)
    expect(r.content).toEqual([
      { type: 'reasoning', text: upstreamJsonView('openai-responses', json).reasoning, id: json.output[0].id, origin: 'openai-responses' },
      { type: 'text', text: '3' },
    ])
    expect(r.stopReason).toBe('end')
    expect(r.usage).toEqual({ inputTokens: 32, outputTokens: 1095, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 1088 })
  })

  test('two function calls by call_id; stop tool_use', () => {
    const r = parseResponsesResponse(answer('json-function-calls-two.json'))
    expect(r.content).toEqual([
      { type: 'tool_call', id: 'call_bzXaB1HDWsWy7n6bMrxJzNNa', name: 'secret_retrieval_tool', arguments: '{"password":"mellon"}' },
      { type: 'tool_call', id: 'call_Dd4wvykCr6NttXKxRK0BFH96', name: 'secret_retrieval_tool', arguments: '{"password":"radiance"}' },
    ])
    expect(r.stopReason).toBe('tool_use')
  })

  test('an incomplete answer (max_output_tokens) stops at max_tokens', () => {
    const r = parseResponsesResponse(answer('json-incomplete-max-output-tokens.json'))
    expect(r.stopReason).toBe('max_tokens')
    expect(r.id).toBe('resp_043a58ea47ac058e0068f966c095748197bf176643cf204a03')
  })
})
