// The messages pass-through tee on every recorded Anthropic stream, frame by frame: each upstream
// event is forwarded in order and unchanged except message_start (our model) and message_delta
// (gains svc), usage is read on the side, and a failure ends with exactly one error event.
import { describe, expect, test } from 'bun:test'
import { fromAnthropicUsage } from '../../../src/core/usage.ts'
import { SseParser } from '../../../src/lib/sse/parse.ts'
import { teeTransform } from '../../../src/inference/stream-translate.ts'
import { messagesTee } from '../../../src/protocols/messages/passthrough.ts'
import { anthropicStreamDecoder } from '../../../src/providers/anthropic-messages/stream-decoder.ts'
import { fixtureSse } from '../../helpers/fixtures.ts'
import { recordedStreams, runTee } from '../../helpers/tee.ts'

const SVC = '{"cost":0.001,"currency":"credits","serviceMode":"performance","latencyMs":1}'
const OURS = { model: 'acme/model' }
const run = (sse: string, tee: ReturnType<typeof messagesTee>) => runTee(sse, teeTransform(anthropicStreamDecoder(), tee), SVC)
const upstreamEvents = (sse: string) => new SseParser().push(sse)

describe('messages tee on recorded Anthropic streams', () => {
  for (const file of recordedStreams('anthropic-messages'))
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
