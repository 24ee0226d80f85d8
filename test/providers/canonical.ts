// A canonical request for the providers' request tests: nothing set but one user turn, so each
// test states only what it maps.
import type { CRequest } from '../../src/core/canonical.ts'

export const request = (over: Partial<CRequest> = {}): CRequest => ({
  system: undefined,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: undefined,
  toolChoice: undefined,
  parallelToolCalls: undefined,
  maxTokens: undefined,
  temperature: undefined,
  topP: undefined,
  topK: undefined,
  stop: undefined,
  reasoning: undefined,
  jsonSchema: undefined,
  stream: false,
  ...over,
})

export const TOOL = { name: 'get_weather', parameters: { type: 'object', properties: {} } }
