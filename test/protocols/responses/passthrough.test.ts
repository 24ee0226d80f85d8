// The responses pass-through tee on every recorded OpenAI stream, frame by frame: each upstream
// event is forwarded in order and unchanged except those that carry the response object (our id
// and model; the closing one gains svc), usage is read on the side, and a failure ends with
// exactly one error event.
import { describe, expect, test } from 'bun:test'
import { fromResponsesUsage } from '../../../src/core/usage.ts'
import { SseParser } from '../../../src/lib/sse/parse.ts'
import { teeTransform } from '../../../src/inference/stream-translate.ts'
import { responsesTee } from '../../../src/protocols/responses/passthrough.ts'
import { responsesStreamDecoder } from '../../../src/providers/openai-responses/stream-decoder.ts'
import { fixtureSse } from '../../helpers/fixtures.ts'
import { recordedStreams, runTee } from '../../helpers/tee.ts'

const SVC = '{"cost":0.001,"currency":"credits","serviceMode":"performance","latencyMs":1}'
const OURS = { id: 'resp_OURS', model: 'acme/model' }
const run = (sse: string, tee: ReturnType<typeof responsesTee>) => runTee(sse, teeTransform(responsesStreamDecoder(), tee), SVC)
const upstreamEvents = (sse: string) => new SseParser().push(sse)

describe('responses tee on recorded OpenAI streams', () => {
  for (const file of recordedStreams('openai-responses').filter((f) => !f.includes('error')))
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

  test('a recorded error event: response.failed then one error event in its place, numbered in sequence, and no response.completed', async () => {
    const { events, outcome } = await run(
      fixtureSse('openai-responses', 'stream-error-event-insufficient-quota.chunks.jsonl'),
      responsesTee(OURS),
    )
    expect(outcome.end).toBe('upstream_failed')
    // docs/api.md "Streams that fail": the response as the client last saw it, failed, right before the error.
    expect(events.map((e) => e.event)).toEqual(['response.created', 'response.in_progress', 'response.failed', 'error'])
    const failed = JSON.parse(events[2]!.data)
    expect([failed.sequence_number, failed.response.id, failed.response.status, failed.response.error.code]).toEqual([
      2,
      OURS.id,
      'failed',
      'upstream_error',
    ])
    expect(JSON.parse(events[3]!.data)).toEqual({
      type: 'error',
      code: 'upstream_error',
      message: 'The upstream model failed mid-stream.',
      param: null,
      sequence_number: 3,
    })
  })
})
