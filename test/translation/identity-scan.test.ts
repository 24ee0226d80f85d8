// No upstream identity reaches a client (docs/api.md "Upstream identity"): every
// recorded fixture of every vendor — answers, streams, HTTP errors, mid-stream errors — is
// replayed through every inbound protocol, and each client body, header and stream event is
// scanned for upstream model names, the gateway's host and key, provider names and (on the
// responses protocol) the upstream's response id. Error bodies must not echo the upstream's text.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson, fixtureSse, fixtureText } from '../helpers/fixtures.ts'

type Proto = 'openai-chat' | 'anthropic-messages' | 'openai-responses'
type Inbound = 'chat' | 'messages' | 'responses'
const PROTOS: Proto[] = ['openai-chat', 'anthropic-messages', 'openai-responses']
const PATH: Record<Inbound, string> = { chat: '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses' }
const PROVIDERS = ['openai', 'anthropic', 'openrouter', 'azure', 'deepseek', 'minimax', 'claude', 'gpt-']
const KEY = 'sk-upstream-secret-0f9e8d7c'

interface Entry {
  file: string
  http_status: number
  streaming: boolean
}

const index = (p: Proto): Entry[] => fixtureJson(p, 'index.json')

/** Every model name any fixture mentions, of any vendor (an upstream model name never reaches a client). */
const MODEL_NAMES = [
  ...new Set(
    PROTOS.flatMap((p) => index(p).flatMap((e) => [...fixtureText(p, e.file).matchAll(/"model"\s*:\s*"([^"]+)"/g)].map((m) => m[1]!))),
  ),
]

/** Words of the answer itself (a model may say "Anthropic"): provider names are checked outside them. */
function contentWords(raw: string): string {
  return raw
    .replace(/^:.*$/gm, '')
    .replace(/"(model|provider|id)"\s*:\s*"[^"]*"/g, '')
    .toLowerCase()
}

/** Upstream error messages: long phrases from error bodies that must not be echoed. */
function upstreamMessages(raw: string): string[] {
  return [...raw.matchAll(/"message"\s*:\s*"([^"]{12,})"/g)].map((m) => m[1]!.slice(0, 40))
}

function body(inbound: Inbound, model: string, stream: boolean) {
  if (inbound === 'chat') return { model, stream, messages: [{ role: 'user', content: 'hi' }] }
  if (inbound === 'messages') return { model, stream, max_tokens: 256, messages: [{ role: 'user', content: 'hi' }] }
  return { model, stream, input: 'hi' }
}

/** What of the upstream's identity `seen` (a client body plus headers) gives away. */
function leaks(raw: string, seen: string, inbound: Inbound, hosts: string[]): string[] {
  const out: string[] = []
  const lower = seen.toLowerCase()
  for (const s of [...MODEL_NAMES, 'upstream-model-name', KEY, ...hosts, 'upstream.example.internal'])
    if (lower.includes(s.toLowerCase())) out.push(`leaked "${s}"`)
  const spoken = contentWords(raw)
  for (const name of PROVIDERS) if (!spoken.includes(name) && lower.includes(name)) out.push(`provider name "${name}"`)
  for (const m of upstreamMessages(raw)) if (lower.includes(m.toLowerCase())) out.push(`echoed upstream text "${m}"`)
  if (inbound === 'responses')
    for (const m of raw.matchAll(/"(resp_[A-Za-z0-9]{10,})"/g))
      if (lower.includes(m[1]!.toLowerCase())) out.push(`upstream response id ${m[1]}`)
  return out
}

test('the scan itself finds planted identity', () => {
  expect(MODEL_NAMES).toContain('claude-sonnet-4-20250514')
  expect(MODEL_NAMES).toContain('gpt-4o-2024-08-06')
  const raw = fixtureText('openai-responses', 'error-429-insufficient-quota.json')
  expect(leaks(raw, '{"model":"t/m0"}', 'chat', ['127.0.0.1:9'])).toEqual([])
  expect(leaks(raw, '{"model":"gpt-4o-2024-08-06"} 127.0.0.1:9', 'chat', ['127.0.0.1:9'])).toEqual([
    'leaked "gpt-4o-2024-08-06"',
    'leaked "127.0.0.1:9"',
    'provider name "gpt-"',
  ])
  expect(leaks(raw, 'You exceeded your current quota, please check', 'chat', [])).toEqual([
    'echoed upstream text "You exceeded your current quota, please "',
  ])
})

describe('no upstream identity in any client body, header or event', () => {
  const ups = {} as Record<Proto, FakeUpstream>
  let gw: TestGateway
  let key: string
  beforeAll(async () => {
    for (const p of PROTOS) ups[p] = startFakeUpstream()
    const catalog: CatalogFile = {
      // Neutral gateway ids: chat's svc.gateway names the gateway (docs/api.md "The svc extension").
      gateways: PROTOS.map((p, i) => ({ id: `gw-${i}`, protocol: p, baseUrl: `${ups[p].url}/v1`, apiKey: KEY, timeoutMs: 2_000 })),
      models: PROTOS.map((_p, i) => ({
        id: `t/m${i}`,
        name: `m${i}`,
        provider: 't',
        contextWindow: 200_000,
        capabilities: ['text'],
        pricing: { input: 1, output: 2 },
        routes: [{ gateway: `gw-${i}`, model: 'upstream-model-name' }],
      })),
    }
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
    key = (await gw.user(50, { rpm: 100_000 })).key
  })
  afterAll(async () => {
    await gw.stop()
    for (const p of PROTOS) ups[p].stop()
  })

  for (const p of PROTOS)
    for (const inbound of ['chat', 'messages', 'responses'] as Inbound[])
      test(`${inbound} ← every ${p} fixture`, async () => {
        let scanned = 0
        for (const e of index(p)) {
          const raw = fixtureText(p, e.file)
          const stream = e.streaming
          if (e.http_status !== 200) ups[p].script({ kind: 'json', body: raw, status: e.http_status })
          else ups[p].script(stream ? { kind: 'sse', text: fixtureSse(p, e.file), chunkSize: 97 } : { kind: 'json', body: raw })
          const res = await gw.request(PATH[inbound], {
            method: 'POST',
            headers: { 'x-api-key': key, 'content-type': 'application/json' },
            body: JSON.stringify(body(inbound, `t/m${PROTOS.indexOf(p)}`, stream)),
          })
          const text = await res.text()
          const where = `${inbound} ← ${p}/${e.file}`
          const found = leaks(raw, `${text}\n${JSON.stringify([...res.headers.entries()])}`, inbound, [ups[p].url.replace('http://', '')])
          if (found.length) throw new Error(`${where}: ${found.join('; ')}`)
          if (e.http_status !== 200 && res.status < 400) throw new Error(`${where}: status ${res.status} ${text.slice(0, 300)}`)
          scanned++
        }
        expect(scanned).toBe(index(p).length)
      })
})
