// What the chat-completions HTTP suites share: posting a call, the chat error envelope, the
// rule that no upstream identity reaches a client, SSE frames, a call's request-log row and an
// account's live reservation.
import { expect } from 'bun:test'
import { eq } from 'drizzle-orm'
import { requestLogs } from '../../src/db/schema/index.ts'
import { bearer, chatBody, type TestGateway } from './gateway.ts'

/** POST /v1/chat/completions with a Bearer key; `body` patches the default body, or is sent as is. */
export const postChat = (gw: TestGateway, key: string, body: string | Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  gw.request('/v1/chat/completions', {
    method: 'POST',
    headers: { ...bearer(key), ...headers },
    body: typeof body === 'string' ? body : chatBody(body),
  })

/** The chat envelope {status:"error", error:{code, message}} with its status; returns `error`. */
export async function expectChatError(
  res: Response,
  status: number,
  code: string,
): Promise<{ code: string; message: string; [k: string]: unknown }> {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toContain('application/json')
  expect(res.headers.get('x-request-id')).toMatch(/^req_/)
  const body = (await res.json()) as any
  expect(body.status).toBe('error')
  expect(body.error.code).toBe(code)
  expect(typeof body.error.message).toBe('string')
  expect(body.error.message.length).toBeGreaterThan(0)
  return body.error
}

/**
 * What an upstream may never show a client: its host, the catalog's upstream model name, its API
 * key, the fixtures' provider model, and the fake upstream's raw error text.
 */
export const UPSTREAM_SECRETS = [
  'upstream-secret-model',
  'sk-upstream-secret',
  '127.0.0.1',
  'localhost',
  'upstream.example.internal',
  'fake upstream failure',
  'gpt-4o',
  'openrouter',
]

export function expectNoUpstreamIdentity(text: string, headers: Headers, extra: string[] = []) {
  const all = (text + '\n' + JSON.stringify([...headers.entries()])).toLowerCase()
  for (const s of [...UPSTREAM_SECRETS, ...extra]) expect(all).not.toContain(s.toLowerCase())
}

/** SSE frames of a whole stream body, in order, without their blank-line separators. */
export const sseFrames = (text: string): string[] => text.split('\n\n').filter((f) => f.length > 0)

/** The request_logs row of one call (id = x-request-id); read after gw.settled(). */
export async function logOf(gw: TestGateway, requestId: string) {
  const rows = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.id, requestId))
  expect(rows).toHaveLength(1)
  return rows[0]!
}

/** Micro-USD an account has reserved right now in the hot store. */
export const reservedOf = async (gw: TestGateway, userId: string): Promise<bigint> =>
  (await gw.runtime.deps.store.account(userId))?.reservedMicros ?? 0n

/** A chat completion with fixed usage, as an OpenAI-chat upstream answers it. */
export const completionWithUsage = (promptTokens: number, completionTokens: number, content = 'hello') => ({
  id: 'chatcmpl-fixed',
  object: 'chat.completion',
  created: 1,
  model: 'upstream-secret-model',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
})

/** Everything a stream still delivers, until it ends or breaks (a cut stream is not an error here). */
export async function readUntilClosed(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const dec = new TextDecoder()
  let text = ''
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return text
      text += dec.decode(value)
    }
  } catch {
    return text
  }
}
