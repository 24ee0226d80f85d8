// Every gateway protocol has its adapter, at the endpoint docs/providers.md names, and the
// catalog serves exactly those protocols.
import { expect, test } from 'bun:test'
import { ADAPTERS, adapterFor, SERVED_PROTOCOLS } from '../../src/providers/registry.ts'

test('one adapter per gateway protocol, each at its own endpoint', () => {
  const endpoint = (a: (typeof ADAPTERS)[keyof typeof ADAPTERS], stream: boolean) => a.modelPath?.('m:1', stream) ?? a.path
  expect(Object.fromEntries(Object.entries(ADAPTERS).map(([p, a]) => [p, [endpoint(a, false), endpoint(a, true)]]))).toEqual({
    'openai-chat': ['/chat/completions', '/chat/completions'],
    'anthropic-messages': ['/messages', '/messages'],
    'openai-responses': ['/responses', '/responses'],
    // The clouds name the model, and the answer kind, in the URL (docs/providers.md "Cloud providers").
    'bedrock-anthropic': ['/model/m%3A1/invoke', '/model/m%3A1/invoke-with-response-stream'],
    'bedrock-converse': ['/model/m%3A1/converse', '/model/m%3A1/converse-stream'],
    'vertex-anthropic': ['/publishers/anthropic/models/m%3A1:rawPredict', '/publishers/anthropic/models/m%3A1:streamRawPredict'],
  })
  expect([...SERVED_PROTOCOLS].sort()).toEqual([
    'anthropic-messages',
    'bedrock-anthropic',
    'bedrock-converse',
    'openai-chat',
    'openai-responses',
    'vertex-anthropic',
  ])
  expect(adapterFor('anthropic-messages')).toBe(ADAPTERS['anthropic-messages'])
})

test('OpenAI protocols send the key as a bearer token, Anthropic as x-api-key with a version; the clouds a key as a bearer (Bedrock API keys)', () => {
  for (const p of ['bedrock-anthropic', 'bedrock-converse', 'vertex-anthropic'] as const) {
    expect(adapterFor(p).headers('k4', {}).authorization).toBe('Bearer k4')
    expect(adapterFor(p).headers(undefined, {}).authorization).toBeUndefined()
  }
  expect(adapterFor('openai-chat').headers('k1', {}).authorization).toBe('Bearer k1')
  expect(adapterFor('openai-responses').headers('k2', {}).authorization).toBe('Bearer k2')
  expect(adapterFor('openai-chat').headers(undefined, {}).authorization).toBeUndefined()
  expect(adapterFor('anthropic-messages').headers('k3', {})).toMatchObject({ 'x-api-key': 'k3', 'anthropic-version': '2023-06-01' })
  expect(adapterFor('anthropic-messages').headers('k3', { 'anthropic-version': '2024-01-01' })['anthropic-version']).toBe('2024-01-01')
})
