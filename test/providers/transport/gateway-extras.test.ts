import { describe, expect, test } from 'bun:test'
import type { Gateway } from '../../../src/core/gateway.ts'
import { upstreamUrl, withGatewayHeaders } from '../../../src/providers/transport/gateway-extras.ts'
import { DEFAULT_POLICY } from '../../../src/routing/policy.ts'

const gw = (extra: Partial<Gateway>): Gateway => ({
  id: 'g',
  protocol: 'openai-chat',
  baseUrl: 'https://res.example/openai/v1',
  apiKey: undefined,
  timeoutMs: 1_000,
  enabled: true,
  policy: DEFAULT_POLICY,
  ...extra,
})

describe('gateway headers and query', () => {
  test('a gateway without them changes nothing', () => {
    const h = { authorization: 'Bearer k' }
    expect(withGatewayHeaders(gw({}), h)).toBe(h)
    expect(upstreamUrl(gw({}), '/chat/completions')).toBe('https://res.example/openai/v1/chat/completions')
  })

  test("the gateway's headers are added, and one named again replaces the protocol's whatever its case", () => {
    const out = withGatewayHeaders(gw({ headers: { 'api-key': 'az', 'Anthropic-Version': '2024-01-01' } }), {
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
    })
    expect(out).toEqual({ 'content-type': 'application/json', 'api-key': 'az', 'anthropic-version': '2024-01-01' })
  })

  test('query parameters are encoded after the endpoint', () => {
    const url = upstreamUrl(gw({ query: { 'api-version': '2025-04-01-preview', x: 'a b&c' } }), '/chat/completions')
    expect(url).toBe('https://res.example/openai/v1/chat/completions?api-version=2025-04-01-preview&x=a+b%26c')
  })
})
