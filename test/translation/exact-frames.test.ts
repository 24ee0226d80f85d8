// The exact frames a client receives for every (inbound × upstream) pair, replaying the recorded
// parallel-tool-call answers of each vendor: every event in order, with its index, ids, names,
// argument fragments, stop reason, usage and svc — and the exact tokens and cost billed.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { requestLogs } from '../../src/db/schema/index.ts'
import { ALL_BACKENDS, startTestGateway, type TestGateway, perProtocolCatalog } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse, fixtureText } from '../helpers/fixtures.ts'
import { frames, render, type Inbound } from './frame-render.ts'

type Proto = 'openai-chat' | 'anthropic-messages' | 'openai-responses'
const PROTOS: Proto[] = ['openai-chat', 'anthropic-messages', 'openai-responses']
const PATH: Record<Inbound, string> = { chat: '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses' }
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

// Tokens each recording reports (input / output); the catalog prices 1 and 2 USD per 1M tokens.
const TOKENS: Record<Proto, [number, number]> = { 'openai-chat': [75, 53], 'anthropic-messages': [416, 109], 'openai-responses': [36, 54] }
const costOf = (p: Proto) => BigInt(TOKENS[p][0] + 2 * TOKENS[p][1])

const T = 'secret_retrieval_tool'
const CHAT_IDS = ['call_M26z19sncd7b4LBgzKRRbaUE', 'call_KPXe5NX7IcKkaBUhc6dto2QV']
const ANTH_IDS = ['toolu_015cUijgET79LXjgeYQerN2h', 'toolu_01XZTimPexA7h3EVKesnKt5T']
const RESP_IDS = ['call_sKC7OABqf2A2PTLCm0CLeRWV', 'call_OdR3s3xop0vtgkDyWRMLafuH']
const ARGS: Record<Proto, [string[], string[]]> = {
  'openai-chat': [
    ['{"pa', 'sswor', 'd": "m', 'ello', 'n"}'],
    ['{"pa', 'sswor', 'd": "r', 'adia', 'nce"}'],
  ],
  'anthropic-messages': [
    ['{"passwo', 'rd": "mellon', '"}'],
    ['{"passw', 'ord', '": "radian', 'ce"}'],
  ],
  'openai-responses': [
    ['{', '"password', '":', '"m', 'ell', 'on', '"}'],
    ['{', '"password', '":', '"radi', 'ance', '"}'],
  ],
}
const IDS: Record<Proto, string[]> = { 'openai-chat': CHAT_IDS, 'anthropic-messages': ANTH_IDS, 'openai-responses': RESP_IDS }
const ANTH_TEXT = ['I', "'ll retrieve the secrets for", ' both passwords you', ' provided.']

/** What a chat client sees from a translated stream (chat ← chat is the upstream's own chunks). */
function chatFrames(p: Proto): string[] {
  const text = p === 'anthropic-messages' ? ANTH_TEXT.map((t) => `text ${t}`) : []
  const tools = [0, 1].flatMap((i) => [`tool ${i} ${IDS[p][i]} ${T}`, ...ARGS[p][i]!.map((a) => `tool ${i} ${a}`)])
  return ['role assistant', ...text, ...tools, 'finish tool_calls', `usage ${TOKENS[p][0]}/${TOKENS[p][1]} cached 0`, 'svc', '[DONE]']
}

function messagesFrames(p: Proto): string[] {
  if (p === 'anthropic-messages')
    return [
      `message_start t/${p} 416/1`,
      'start 0 text',
      ...ANTH_TEXT.slice(0, 2).map((t) => `delta 0 text ${t}`),
      'ping',
      ...ANTH_TEXT.slice(2).map((t) => `delta 0 text ${t}`),
      'stop 0',
      ...[1, 2].flatMap((b) => [
        `start ${b} tool_use ${ANTH_IDS[b - 1]} ${T}`,
        `delta ${b} input_json `,
        ...ARGS[p][b - 1]!.map((a) => `delta ${b} input_json ${a}`),
        `stop ${b}`,
      ]),
      'message_delta tool_use in 416 out 109 cache 0/0 svc',
      'message_stop',
    ]
  const blocks = [0, 1].flatMap((b) => [
    `start ${b} tool_use ${IDS[p][b]} ${T}`,
    ...(b === 0 ? ['ping'] : []),
    ...ARGS[p][b]!.map((a) => `delta ${b} input_json ${a}`),
    `stop ${b}`,
  ])
  return [
    `message_start t/${p} 0/0`,
    ...blocks,
    `message_delta tool_use in ${TOKENS[p][0]} out ${TOKENS[p][1]} cache 0/0 svc`,
    'message_stop',
  ]
}

function responsesFrames(p: Proto): string[] {
  const full = (i: number) => ARGS[p][i]!.join('')
  const call = (i: number, at: number) => [
    `output_item.added ${at} function_call in_progress ${IDS[p][i]} ${T} `,
    ...ARGS[p][i]!.map((a) => `function_call_arguments.delta ${at} ${a}`),
    `function_call_arguments.done ${at} ${full(i)}`,
    `output_item.done ${at} function_call completed ${IDS[p][i]} ${T} ${full(i)}`,
  ]
  const text = "I'll retrieve the secrets for both passwords you provided."
  const message =
    p === 'anthropic-messages'
      ? [
          'output_item.added 0 message in_progress',
          'content_part.added 0 output_text ',
          ...ANTH_TEXT.map((t) => `output_text.delta 0 ${t}`),
          `output_text.done 0 ${text}`,
          `content_part.done 0 output_text ${text}`,
          'output_item.done 0 message completed',
        ]
      : []
  const first = message.length ? 1 : 0
  const items = `${message.length ? 'message,' : ''}function_call,function_call`
  return [
    `created resp_ t/${p} in_progress`,
    `in_progress resp_ t/${p} in_progress`,
    ...message,
    ...call(0, first),
    ...call(1, first + 1),
    `completed completed - items ${items} in ${TOKENS[p][0]} out ${TOKENS[p][1]} cached 0 svc`,
  ]
}

const EXPECTED: Record<Inbound, (p: Proto) => string[]> = { chat: chatFrames, messages: messagesFrames, responses: responsesFrames }

function body(inbound: Inbound, model: string, stream: boolean) {
  if (inbound === 'chat') return { model, stream, messages: [{ role: 'user', content: 'Get both secrets' }] }
  if (inbound === 'messages') return { model, stream, max_tokens: 256, messages: [{ role: 'user', content: 'Get both secrets' }] }
  return { model, stream, input: 'Get both secrets' }
}

for (const backends of ALL_BACKENDS)
  describe(`exact client frames and billing for every pair on ${backends.db}+${backends.store}`, () => {
    const ups = {} as Record<Proto, FakeUpstream>
    let gw: TestGateway
    let key: string
    let userId: string
    beforeAll(async () => {
      for (const p of PROTOS) ups[p] = startFakeUpstream()
      const catalog = perProtocolCatalog(ups)
      gw = await startTestGateway(backends, catalog)
      const u = await gw.user(5, { rpm: 1_000 })
      key = u.key
      userId = u.userId
    })
    afterAll(async () => {
      await gw.stop()
      for (const p of PROTOS) ups[p].stop()
    })
    const post = (inbound: Inbound, p: Proto, stream: boolean) =>
      gw.request(PATH[inbound], {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body(inbound, `t/${p}`, stream)),
      })

    async function billed(requestId: string) {
      await gw.settled()
      const [log] = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.id, requestId))
      return log!
    }

    for (const inbound of ['chat', 'messages', 'responses'] as Inbound[])
      for (const p of PROTOS) {
        test(`${inbound} ← ${p}: stream frames, in order`, async () => {
          ups[p].script({ kind: 'sse', text: fixtureSse(p, STREAM[p]), chunkSize: 53 })
          const res = await post(inbound, p, true)
          const text = await res.text()
          expect(render(inbound, text)).toEqual(EXPECTED[inbound](p))
          const log = await billed(res.headers.get('x-request-id')!)
          expect(log).toMatchObject({
            inputTokens: TOKENS[p][0],
            outputTokens: TOKENS[p][1],
            cacheReadTokens: 0,
            status: 200,
            usageSource: 'upstream',
            gateway: `gw-${p}`,
            protocol: inbound,
            stream: true,
          })
          expect(log.costMicros).toBe(costOf(p))
          if (inbound === 'responses') {
            // Item ids are unique and the final response lists the same items.
            const evs = frames(text).map((f) => JSON.parse(f.data))
            const added = evs.filter((e) => e.type === 'response.output_item.added').map((e) => e.item.id)
            expect(new Set(added).size).toBe(added.length)
            expect(evs.at(-1).response.output.map((i: any) => i.id)).toEqual(added)
            expect(evs.every((e) => e.response === undefined || e.response.id === res.headers.get('x-request-id'))).toBe(true)
          }
          if (inbound !== 'chat') {
            // svc: the cost in credits (1,000 per USD by default), the key's service mode.
            const svc = JSON.parse(text.match(/"svc":(\{[^}]*\})/)![1]!)
            expect(svc).toMatchObject({ cost: Number(costOf(p)) / 1_000, currency: 'credits', serviceMode: 'performance' })
          }
        })

        test(`${inbound} ← ${p}: JSON answer`, async () => {
          ups[p].script({ kind: 'json', body: fixtureText(p, JSON_FIXTURE[p]) })
          const res = await post(inbound, p, false)
          const j = (await res.json()) as any
          expect(res.status).toBe(200)
          expect(res.headers.get('x-model')).toBe(`t/${p}`)
          const calls = jsonCalls(inbound, j)
          const expectedArgs =
            p === 'openai-chat'
              ? ['{"password": "mellon"}', '{"password": "radiance"}']
              : ['{"password":"mellon"}', '{"password":"radiance"}']
          const ids =
            p === 'openai-chat'
              ? ['call_v6LacIrChvs6ITVpIZqy5tFc', 'call_onyWzk4mLTGKzW9cthmf4Llq']
              : p === 'anthropic-messages'
                ? ['toolu_01BUvqBj8Yb34pNAbCJJY1oc', 'toolu_01VPuQJ1LonDBYXrr8pqPkqQ']
                : ['call_bzXaB1HDWsWy7n6bMrxJzNNa', 'call_Dd4wvykCr6NttXKxRK0BFH96']
          // Messages clients get `input` objects; the others get JSON text (as written when the upstream wrote text).
          expect(calls).toEqual(
            ids.map((id, i) => ({ id, name: T, args: inbound === 'messages' ? JSON.parse(expectedArgs[i]!) : expectedArgs[i] })),
          )
          expect(jsonText(inbound, j)).toBe(p === 'anthropic-messages' ? "I'll retrieve the secrets for both passwords you provided." : '')
          expect(jsonStop(inbound, j)).toBe(inbound === 'chat' ? 'tool_calls' : inbound === 'messages' ? 'tool_use' : 'completed')
          expect(jsonUsage(inbound, j)).toEqual(TOKENS[p])
          expect(j.model).toBe(`t/${p}`)
          if (inbound === 'responses') expect(j.id).toBe(res.headers.get('x-request-id'))
          const log = await billed(res.headers.get('x-request-id')!)
          expect(log).toMatchObject({
            inputTokens: TOKENS[p][0],
            outputTokens: TOKENS[p][1],
            status: 200,
            usageSource: 'upstream',
            stream: false,
          })
          expect(log.costMicros).toBe(costOf(p))
          const books = await gw.books(userId)
          expect(books.ledgerSum).toBe(books.balance)
          expect(j.svc.cost).toBe(inbound === 'chat' ? Number(costOf(p)) / 1e6 : Number(costOf(p)) / 1_000)
        })
      }
  })

function jsonCalls(inbound: Inbound, j: any): { id: string; name: string; args: unknown }[] {
  if (inbound === 'chat')
    return j.choices[0].message.tool_calls.map((c: any) => ({ id: c.id, name: c.function.name, args: c.function.arguments }))
  if (inbound === 'messages')
    return j.content.filter((b: any) => b.type === 'tool_use').map((b: any) => ({ id: b.id, name: b.name, args: b.input }))
  return j.output.filter((i: any) => i.type === 'function_call').map((i: any) => ({ id: i.call_id, name: i.name, args: i.arguments }))
}

function jsonText(inbound: Inbound, j: any): string {
  if (inbound === 'chat') return j.choices[0].message.content ?? ''
  if (inbound === 'messages')
    return j.content
      .filter((b: any) => b.type === 'text')
      .map((b: any) => b.text)
      .join('')
  return j.output
    .filter((i: any) => i.type === 'message')
    .flatMap((i: any) => i.content.map((c: any) => c.text))
    .join('')
}

const jsonStop = (inbound: Inbound, j: any): string =>
  inbound === 'chat' ? j.choices[0].finish_reason : inbound === 'messages' ? j.stop_reason : j.status

function jsonUsage(inbound: Inbound, j: any): [number, number] {
  if (inbound === 'chat') return [j.usage.prompt_tokens, j.usage.completion_tokens]
  return [j.usage.input_tokens, j.usage.output_tokens]
}
