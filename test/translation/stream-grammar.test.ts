// Every recorded stream of each vendor, translated into each other protocol, must be a
// well-formed stream of that protocol: chat (role chunk, deltas, one finish, usage, svc, [DONE]);
// messages (message_start, properly nested content blocks with consecutive indexes, one
// message_delta, message_stop); responses (consecutive sequence numbers, items added and done in
// order, deltas only for the open item, the final output listing exactly the items done).
import { describe, expect, test } from 'bun:test'
import type { StreamEncoder } from '../../src/core/frames.ts'
import { translateTransform } from '../../src/inference/stream-translate.ts'
import { SseParser } from '../../src/lib/sse/parse.ts'
import { chatStreamEncoder } from '../../src/protocols/chat/stream-encoder.ts'
import { messagesStreamEncoder } from '../../src/protocols/messages/stream-encoder.ts'
import { responsesStreamEncoder } from '../../src/protocols/responses/stream-encoder.ts'
import { anthropicAdapter } from '../../src/providers/anthropic-messages/adapter.ts'
import { openAiChatAdapter } from '../../src/providers/openai-chat/adapter.ts'
import { openAiResponsesAdapter } from '../../src/providers/openai-responses/adapter.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'

type Proto = 'openai-chat' | 'anthropic-messages' | 'openai-responses'
type Inbound = 'chat' | 'messages' | 'responses'
const ADAPTER = { 'openai-chat': openAiChatAdapter, 'anthropic-messages': anthropicAdapter, 'openai-responses': openAiResponsesAdapter }
const NATIVE: Record<Inbound, Proto> = { chat: 'openai-chat', messages: 'anthropic-messages', responses: 'openai-responses' }
const ENCODER: Record<Inbound, () => StreamEncoder> = {
  chat: () => chatStreamEncoder('chatcmpl-x', 'm', 0),
  messages: () => messagesStreamEncoder('msg_x', 'm'),
  responses: () => responsesStreamEncoder({ id: 'resp_x', model: 'm', createdAt: 0 }),
}

function translate(p: Proto, file: string, inbound: Inbound): { event: string | undefined; data: string }[] {
  const t = translateTransform(ADAPTER[p].streamDecoder(), ENCODER[inbound]())
  let out = ''
  for (const ev of new SseParser().push(fixtureSse(p, file))) out += t.push(ev)
  expect(t.complete()).toBe(true)
  out += t.close('{"cost":0}')
  return new SseParser().push(out)
}

function checkChat(frames: { data: string }[]) {
  expect(frames.at(-1)!.data).toBe('[DONE]')
  const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.data))
  expect(chunks[0].choices[0].delta.role).toBe('assistant')
  expect(chunks.at(-1).svc).toBeDefined()
  expect(chunks.at(-2).usage.total_tokens).toBeGreaterThan(0)
  expect(chunks.filter((c) => c.choices[0]?.finish_reason).length).toBe(1)
  const args = new Map<number, string>()
  for (const c of chunks)
    for (const tc of c.choices[0]?.delta?.tool_calls ?? []) args.set(tc.index, (args.get(tc.index) ?? '') + (tc.function?.arguments ?? ''))
  for (const a of args.values()) expect(() => JSON.parse(a)).not.toThrow()
}

function checkMessages(frames: { event: string | undefined; data: string }[]) {
  const evs = frames.map((f) => ({ ...JSON.parse(f.data), event: f.event }))
  for (const e of evs) expect(e.event).toBe(e.type)
  expect(evs[0].type).toBe('message_start')
  expect(evs.at(-1).type).toBe('message_stop')
  expect(evs.at(-2).type).toBe('message_delta')
  let open: number | undefined
  let next = 0
  const json = new Map<number, string>()
  for (const e of evs.slice(1, -2)) {
    if (e.type === 'content_block_start') {
      expect(open).toBeUndefined()
      expect(e.index).toBe(next++)
      open = e.index
      if (e.content_block.type === 'tool_use') json.set(e.index, '')
    } else if (e.type === 'content_block_delta') {
      expect(e.index).toBe(open)
      if (e.delta.type === 'input_json_delta') json.set(e.index, json.get(e.index)! + e.delta.partial_json)
    } else if (e.type === 'content_block_stop') {
      expect(e.index).toBe(open)
      open = undefined
    } else expect(e.type).toBe('ping')
  }
  expect(open).toBeUndefined()
  for (const j of json.values()) expect(() => JSON.parse(j || '{}')).not.toThrow()
}

function checkResponses(frames: { event: string | undefined; data: string }[]) {
  const evs = frames.map((f) => ({ ...JSON.parse(f.data), event: f.event }))
  expect(evs.map((e) => e.sequence_number)).toEqual(evs.map((_, i) => i))
  for (const e of evs) expect(e.event).toBe(e.type)
  expect(evs.slice(0, 2).map((e) => e.type)).toEqual(['response.created', 'response.in_progress'])
  const done: any[] = []
  let open: any
  for (const e of evs.slice(2, -1)) {
    if (e.type === 'response.output_item.added') {
      expect(open).toBeUndefined()
      expect(e.output_index).toBe(done.length)
      open = e.item
    } else if (e.type === 'response.output_item.done') {
      expect(e.item.id).toBe(open.id)
      done.push(e.item)
      open = undefined
    } else {
      expect(e.item_id).toBe(open.id)
      expect(e.output_index).toBe(done.length)
    }
  }
  expect(open).toBeUndefined()
  const last = evs.at(-1)
  expect(['response.completed', 'response.incomplete']).toContain(last.type)
  expect(last.response.output).toEqual(done)
  expect(new Set(done.map((i) => i.id)).size).toBe(done.length)
  for (const i of done.filter((i) => i.type === 'function_call')) expect(() => JSON.parse(i.arguments)).not.toThrow()
}

const CHECK = { chat: checkChat, messages: checkMessages, responses: checkResponses }

for (const p of ['openai-chat', 'anthropic-messages', 'openai-responses'] as Proto[]) {
  const files = (fixtureJson(p, 'index.json') as { file: string; streaming: boolean }[])
    .filter((e) => e.streaming && !/error/.test(e.file))
    .map((e) => e.file)
  for (const inbound of (['chat', 'messages', 'responses'] as Inbound[]).filter((i) => NATIVE[i] !== p))
    describe(`${inbound} ← ${p}: translated streams are well formed`, () => {
      for (const file of files) test(file, () => CHECK[inbound](translate(p, file, inbound)))
    })
}
