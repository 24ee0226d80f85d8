// Every gateway protocol has its adapter, at the endpoint docs/providers.md names, and the
// catalog serves exactly those protocols.
import { expect, test } from 'bun:test'
import { ADAPTERS, adapterFor, SERVED_PROTOCOLS } from '../../src/providers/registry.ts'

test('one adapter per gateway protocol, each at its own endpoint', () => {
  expect(Object.fromEntries(Object.entries(ADAPTERS).map(([p, a]) => [p, a.path]))).toEqual({
    'openai-chat': '/chat/completions',
    'anthropic-messages': '/messages',
    'openai-responses': '/responses',
  })
  expect([...SERVED_PROTOCOLS].sort()).toEqual(['anthropic-messages', 'openai-chat', 'openai-responses'])
  expect(adapterFor('anthropic-messages')).toBe(ADAPTERS['anthropic-messages'])
})

test('OpenAI protocols send the key as a bearer token, Anthropic as x-api-key with a version', () => {
  expect(adapterFor('openai-chat').headers('k1', {}).authorization).toBe('Bearer k1')
  expect(adapterFor('openai-responses').headers('k2', {}).authorization).toBe('Bearer k2')
  expect(adapterFor('openai-chat').headers(undefined, {}).authorization).toBeUndefined()
  expect(adapterFor('anthropic-messages').headers('k3', {})).toMatchObject({ 'x-api-key': 'k3', 'anthropic-version': '2023-06-01' })
  expect(adapterFor('anthropic-messages').headers('k3', { 'anthropic-version': '2024-01-01' })['anthropic-version']).toBe('2024-01-01')
})
