// svc.upstreamRequestId on chat answers names the upstream's own answer id for every upstream
// protocol, in JSON and in streams alike (a chat stream over an Anthropic gateway used to say "").
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestGateway, type TestGateway, perProtocolCatalog } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'
import { sseFrames } from '../helpers/chat.ts'

type Proto = 'openai-chat' | 'anthropic-messages' | 'openai-responses'
const PROTOS: Proto[] = ['openai-chat', 'anthropic-messages', 'openai-responses']
const STREAM: Record<Proto, string> = {
  'openai-chat': 'stream-tool-calls-two.sse',
  'anthropic-messages': 'stream-tool-use-two.sse',
  'openai-responses': 'stream-function-calls-two.sse',
}
const JSON_FIXTURE: Record<Proto, string> = {
  'openai-chat': 'json-tool-calls-two.json',
  'anthropic-messages': 'json-tool-use-two.json',
  'openai-responses': 'json-function-calls-two.json',
}

/** The answer id the recorded stream carries (chunk id, message_start's message, response.created's response). */
function streamId(p: Proto): string {
  for (const frame of sseFrames(fixtureSse(p, STREAM[p]))) {
    const line = frame.split('\n').find((l) => l.startsWith('data: '))
    if (!line || line === 'data: [DONE]') continue
    const d = JSON.parse(line.slice(6))
    const id = p === 'openai-chat' ? d.id : p === 'anthropic-messages' ? d.message?.id : d.response?.id
    if (id) return id
  }
  throw new Error(`no id in ${p} fixture`)
}

describe('svc.upstreamRequestId for every upstream protocol', () => {
  const ups = {} as Record<Proto, FakeUpstream>
  let gw: TestGateway
  let key: string
  beforeAll(async () => {
    for (const p of PROTOS) ups[p] = startFakeUpstream()
    const catalog = perProtocolCatalog(ups)
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
    key = (await gw.user(5, { rpm: 1_000 })).key
  }, 60_000)
  afterAll(async () => {
    await gw.stop()
    for (const p of PROTOS) ups[p].stop()
  }, 60_000)
  const post = (p: Proto, stream: boolean) =>
    gw.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: `t/${p}`, stream, messages: [{ role: 'user', content: 'Get both secrets' }] }),
    })

  for (const p of PROTOS) {
    test(`chat ← ${p}: JSON and stream both carry the upstream's id`, async () => {
      ups[p].script({ kind: 'json', body: fixtureJson(p, JSON_FIXTURE[p]) })
      const json = (await (await post(p, false)).json()) as any
      expect(json.svc.upstreamRequestId).toBe(fixtureJson(p, JSON_FIXTURE[p]).id)

      ups[p].script({ kind: 'sse', text: fixtureSse(p, STREAM[p]), chunkSize: 53 })
      const text = await (await post(p, true)).text()
      const svcFrame = sseFrames(text)
        .map((f) => f.replace(/^data: /, ''))
        .filter((d) => d !== '[DONE]')
        .map((d) => JSON.parse(d))
        .find((d) => d.svc)
      expect(svcFrame?.svc.upstreamRequestId).toBe(streamId(p))
      expect(streamId(p).length).toBeGreaterThan(0)
    })
  }
})
