// The demo upstream on its own: each protocol echoes the last user message, the streamed words
// add up to the JSON answer, and usage is reported as the real APIs report it.
import { afterAll, describe, expect, test } from 'bun:test'
import { startDemoUpstream } from '../../src/demo/upstream.ts'

const server = startDemoUpstream()
afterAll(() => server.stop(true))
const post = (path: string, body: object) =>
  fetch(`http://127.0.0.1:${server.port}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
const dataOf = async (res: Response) =>
  (await res.text())
    .split('\n\n')
    .map((f) =>
      f
        .split('\n')
        .find((l) => l.startsWith('data: '))
        ?.slice(6),
    )
    .filter((d): d is string => d !== undefined)

const ECHO = 'Hello from the Tollgate demo upstream. You said: '

describe('demo upstream', () => {
  test('chat JSON echoes the last user turn (parts joined), with usage that adds up', async () => {
    const body = await (
      await post('/chat/completions', {
        model: 'echo-1',
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'ok' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'second' },
              { type: 'text', text: 'part' },
            ],
          },
        ],
      })
    ).json()
    expect(body.choices[0].message.content).toBe(`${ECHO}second part`)
    expect(body.choices[0].finish_reason).toBe('stop')
    expect(body.model).toBe('echo-1')
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens)
    expect(body.usage.completion_tokens).toBe(Math.ceil(body.choices[0].message.content.length / 4))
  })

  test('chat stream: the deltas spell the answer; usage only with include_usage; ends with [DONE]', async () => {
    const plain = await dataOf(
      await post('/chat/completions', { model: 'e', stream: true, messages: [{ role: 'user', content: 'hi there' }] }),
    )
    expect(plain.at(-1)).toBe('[DONE]')
    const chunks = plain.slice(0, -1).map((d) => JSON.parse(d))
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe(`${ECHO}hi there`)
    expect(chunks.some((c) => c.usage)).toBe(false)
    const withUsage = await dataOf(
      await post('/chat/completions', {
        model: 'e',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'x' }],
      }),
    )
    const last = JSON.parse(withUsage.at(-2)!)
    expect(last.choices).toEqual([])
    expect(last.usage.completion_tokens).toBe(Math.ceil(`${ECHO}x`.length / 4))
  })

  test('messages stream: message_start carries a placeholder output count; message_delta the final one', async () => {
    const events = (
      await dataOf(await post('/messages', { model: 'e', stream: true, max_tokens: 10, messages: [{ role: 'user', content: 'yo' }] }))
    ).map((d) => JSON.parse(d))
    expect(events[0].type).toBe('message_start')
    expect(events[0].message.usage.output_tokens).toBe(1)
    const text = events
      .filter((e) => e.type === 'content_block_delta')
      .map((e) => e.delta.text)
      .join('')
    expect(text).toBe(`${ECHO}yo`)
    const delta = events.find((e) => e.type === 'message_delta')
    expect(delta.usage.output_tokens).toBe(Math.ceil(text.length / 4))
    expect(events.at(-1).type).toBe('message_stop')
  })

  test('responses: a string input is the user turn; the stream’s sequence numbers count up and it completes', async () => {
    const json = await (await post('/responses', { model: 'e', input: 'plain input' })).json()
    expect(json.output[0].content[0].text).toBe(`${ECHO}plain input`)
    expect(json.status).toBe('completed')
    const events = (await dataOf(await post('/responses', { model: 'e', stream: true, input: [{ role: 'user', content: 'abc' }] }))).map(
      (d) => JSON.parse(d),
    )
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i))
    expect(events[0].response.usage).toBeNull()
    expect(events.at(-1).type).toBe('response.completed')
    expect(events.at(-1).response.usage.output_tokens).toBe(Math.ceil(`${ECHO}abc`.length / 4))
  })

  test('anything but a POST to a known path is 404', async () => {
    expect((await fetch(`http://127.0.0.1:${server.port}/v1/chat/completions`)).status).toBe(404)
    expect((await post('/embeddings', { input: 'x' })).status).toBe(404)
  })
})
