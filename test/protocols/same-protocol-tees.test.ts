// The messages and responses pass-through tees on every recorded stream of their vendor, frame
// by frame: each upstream event is forwarded in order and unchanged except the events that name
// the upstream (messages: message_start's model; responses: the response object's id and model),
// the closing event carries svc, usage is read on the side, and a failure ends with exactly one
// error event.
import { describe, expect, test } from 'bun:test'
import type { FrameTransform } from '../../src/core/frames.ts'
import { fromAnthropicUsage, fromResponsesUsage } from '../../src/core/usage.ts'
import { SseParser } from '../../src/lib/sse/parse.ts'
import { messagesTee } from '../../src/protocols/messages/passthrough.ts'
import { responsesTee } from '../../src/protocols/responses/passthrough.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'
import { pipeHarness } from '../helpers/pipe.ts'

const SVC = '{"cost":0.001,"currency":"credits","serviceMode":"performance","latencyMs":1}'
const OURS = { id: 'resp_OURS', model: 'acme/model' }

function upstreamOf(text: string, split = 41): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  let at = 0
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close()
      c.enqueue(bytes.slice(at, at + split))
      at += split
    },
  })
}

async function run(sse: string, tee: FrameTransform) {
  const pipe = pipeHarness(upstreamOf(sse).getReader(), tee, { svc: SVC })
  const text = await new Response(pipe.body).text()
  return { events: new SseParser().push(text), outcome: pipe.outcome! }
}

const upstreamEvents = (sse: string) => new SseParser().push(sse)
const streams = (p: 'anthropic-messages' | 'openai-responses') =>
  (fixtureJson(p, 'index.json') as { file: string; streaming: boolean }[]).filter((e) => e.streaming).map((e) => e.file)

describe('messages tee on recorded Anthropic streams', () => {
  for (const file of streams('anthropic-messages'))
    test(file, async () => {
      const sse = fixtureSse('anthropic-messages', file)
      const up = upstreamEvents(sse)
      const { events, outcome } = await run(`${sse}data: [DONE]\n\n`, messagesTee(OURS.model))
      expect(outcome.end).toBe('completed')
      // Same events, same order; only message_start names the model, and message_delta gains svc.
      expect(events.map((e) => e.event)).toEqual(up.map((e) => e.event))
      for (const [i, e] of events.entries()) {
        const u = up[i]!
        if (e.event === 'message_start')
          expect(JSON.parse(e.data)).toEqual({ ...JSON.parse(u.data), message: { ...JSON.parse(u.data).message, model: OURS.model } })
        else if (e.event === 'message_delta') expect(JSON.parse(e.data)).toEqual({ ...JSON.parse(u.data), svc: JSON.parse(SVC) })
        else if (e.event === 'message_stop') expect(JSON.parse(e.data)).toEqual({ type: 'message_stop' })
        else expect(e.data).toBe(u.data)
      }
      // Usage: message_start's input side, message_delta's cumulative output.
      const start = JSON.parse(up.find((e) => e.event === 'message_start')!.data).message.usage
      const delta = JSON.parse(up.findLast((e) => e.event === 'message_delta')!.data).usage
      expect(outcome.usage).toEqual(fromAnthropicUsage({ ...start, ...delta }))
    })

  test('an upstream error event ends the stream with one error event and no message_stop', async () => {
    const sse = fixtureSse('anthropic-messages', 'stream-text.sse')
    const cut =
      sse.slice(0, sse.indexOf('event: content_block_stop')) +
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded at upstream-host"}}\n\n'
    const { events, outcome } = await run(cut, messagesTee(OURS.model))
    expect(outcome.end).toBe('upstream_failed')
    expect(events.at(-1)!.event).toBe('error')
    expect(events.filter((e) => e.event === 'error' || e.event === 'message_stop').length).toBe(1)
    expect(events.at(-1)!.data).not.toContain('upstream-host')
  })
})

describe('responses tee on recorded OpenAI streams', () => {
  for (const file of streams('openai-responses').filter((f) => !f.includes('error')))
    test(file, async () => {
      const sse = fixtureSse('openai-responses', file)
      const up = upstreamEvents(sse)
      const { events, outcome } = await run(sse, responsesTee(OURS))
      expect(outcome.end).toBe('completed')
      expect(events.map((e) => e.event)).toEqual(up.map((e) => e.event))
      for (const [i, e] of events.entries()) {
        const u = JSON.parse(up[i]!.data)
        if (u.response) {
          const mine = JSON.parse(e.data)
          const { svc, ...response } = mine.response
          expect({ ...mine, response }).toEqual({ ...u, response: { ...u.response, ...OURS } })
          expect(svc === undefined).toBe(i < events.length - 1) // only the closing event carries svc
        } else expect(e.data).toBe(up[i]!.data)
      }
      const last = JSON.parse(up.at(-1)!.data)
      expect(outcome.usage).toEqual(fromResponsesUsage(last.response.usage))
    })

  test('a recorded error event: one error event in its place, numbered in sequence, and no response.completed', async () => {
    const { events, outcome } = await run(
      fixtureSse('openai-responses', 'stream-error-event-insufficient-quota.chunks.jsonl'),
      responsesTee(OURS),
    )
    expect(outcome.end).toBe('upstream_failed')
    expect(events.map((e) => e.event)).toEqual(['response.created', 'response.in_progress', 'error'])
    expect(JSON.parse(events[2]!.data)).toEqual({
      type: 'error',
      code: 'upstream_error',
      message: 'The upstream model failed mid-stream.',
      param: null,
      sequence_number: 2,
    })
  })
})
