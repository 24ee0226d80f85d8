// Fuzz (docs/security.md "Input: one rule at every edge"): every endpoint driven with generated
// hostile input — invalid JSON, non-object bodies, wrong types, NUL, lone surrogates, huge numbers,
// deep nesting, 10k messages/tools, prototype-pollution keys, oversize bodies, hostile query
// strings and path parameters. Every answer is a 4xx in the surface's envelope with x-request-id
// (never a 5xx, never a hang), and the books (users, keys, ledger, balances, payment events) are
// exactly as before. Both backend pairs (Postgres is where a NUL really fails; PGlite must refuse
// the same way).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { ADMIN_TOKEN, ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { CONSOLE_ENV, freshIp, signUp, type SignedIn } from '../console/helpers.ts'
import { expectRefusal, snapshot } from './hostile.ts'

const MAX_BODY_BYTES = 256 * 1024

type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'array'
interface Endpoint {
  method: 'GET' | 'POST' | 'DELETE'
  path: string
  auth: 'session' | 'admin' | 'key' | 'none'
  /** A body that is valid except for what the fuzz changes (POST). */
  base?: Record<string, unknown>
  fields?: Record<string, { type: FieldType; nullable?: boolean; huge?: boolean }>
  /** Query parameters to fuzz (GET). */
  query?: Record<string, QueryKind>
}

/** Values of the wrong type for a field, plus unsafe text and (where out of range) huge numbers. */
function badValues(f: { type: FieldType; nullable?: boolean; huge?: boolean }): unknown[] {
  const out: unknown[] = f.nullable ? [] : [null]
  if (f.type === 'string') out.push(12345, true, [], {}, 'a\u0000b', '\ud800x', 'x\udc00', '\u0000')
  // Elysia converts a numeric string inside a nullable union ("5" → 5): accepted, harmless.
  if (f.type === 'number' || f.type === 'integer') out.push(...(f.nullable ? [] : ['5']), 'x', true, [], {})
  if (f.type === 'integer') out.push(1.5)
  if (f.huge) out.push(1e308, -1e308)
  if (f.type === 'boolean') out.push('true', 1, [], {})
  if (f.type === 'array') out.push('x\u0000', 1, {}, [null], [1])
  return out
}

const deepArrays = (n: number) => '['.repeat(n) + ']'.repeat(n)
const deepObjects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)

/** Raw bodies every POST endpoint gets, whatever its schema. */
const GENERIC_BODIES: [string, string][] = [
  ['truncated JSON', '{'],
  ['truncated member', '{"a":'],
  ['single quotes', "{'a':1}"],
  ['trailing comma', '[1,]'],
  ['trailing garbage', '{"a":1}x'],
  ['null', 'null'],
  ['empty array', '[]'],
  ['number', '1'],
  ['string', '"x"'],
  ['boolean', 'true'],
  ['10,000-deep arrays', deepArrays(10_000)],
  ['10,000-deep objects', deepObjects(10_000)],
  ['__proto__ member', '{"__proto__":{"admin":true,"balance":1e9}}'],
  ['constructor.prototype', '{"constructor":{"prototype":{"polluted":true}}}'],
  ['escaped NUL member name', '{"a\\u0000":1}'],
  ['raw control character', '{"a":"\u0001\u0000"}'],
  ['oversize', JSON.stringify({ pad: 'x'.repeat(MAX_BODY_BYTES + 10) })],
]

type QueryKind = 'text' | 'int' | 'enum' | 'cursor'
// A URL cannot carry a lone surrogate (percent-encoding is UTF-8); undecodable bytes stay as
// their literal %XX text, which a free-text filter may match as it likes.
const UNSAFE_QUERY = ['%00', 'a%00b', 'x'.repeat(400)]
const UNDECODABLE = ['%ED%A0%80', '%ED%B0%80x', '%FF%FE']
const HOSTILE_QUERY: Record<QueryKind, string[]> = {
  text: UNSAFE_QUERY,
  int: [...UNSAFE_QUERY, ...UNDECODABLE, '-1', '0', '1e999', '9'.repeat(400), 'abc', '1.5'],
  enum: [...UNSAFE_QUERY, ...UNDECODABLE, '__proto__', 'constructor', 'ALL'],
  cursor: [
    ...UNSAFE_QUERY,
    ...UNDECODABLE,
    Buffer.from('9223372036854775807.x').toString('base64url'),
    Buffer.from('99999999999999999999.x').toString('base64url'),
    Buffer.from('1.').toString('base64url'),
    '!!!',
  ],
}

const many = (n: number, item: (i: number) => unknown, last: unknown) => [...Array.from({ length: n - 1 }, (_, i) => item(i)), last]

function endpoints(ids: { keyId: string; userId: string; txId: string }): Endpoint[] {
  const chatMsgs = [{ role: 'user', content: 'hi' }]
  return [
    {
      method: 'POST',
      path: '/api/auth/register',
      auth: 'none',
      base: { email: 'fuzz@test.local', password: 'long enough password' },
      fields: { email: { type: 'string' }, password: { type: 'string' } },
    },
    {
      method: 'POST',
      path: '/api/auth/login',
      auth: 'none',
      base: { email: 'fuzz@test.local', password: 'x' },
      fields: { email: { type: 'string' }, password: { type: 'string' } },
    },
    {
      method: 'POST',
      path: '/api/keys',
      auth: 'session',
      base: { name: 'k' },
      fields: {
        name: { type: 'string' },
        limit: { type: 'number', nullable: true, huge: true },
        rpm: { type: 'integer', nullable: true, huge: true },
        expiresAt: { type: 'string', nullable: true },
      },
    },
    {
      method: 'POST',
      path: '/api/wallet/topup',
      auth: 'session',
      base: { amount: 10, provider: 'sandbox' },
      fields: { amount: { type: 'number', huge: true }, provider: { type: 'string' } },
    },
    {
      method: 'POST',
      path: '/api/admin/users',
      auth: 'admin',
      base: { email: 'fuzz-admin@test.local' },
      fields: { email: { type: 'string' }, password: { type: 'string' } },
    },
    {
      method: 'POST',
      path: `/api/admin/users/${ids.userId}/credits`,
      auth: 'admin',
      base: { amount: 1 },
      fields: { amount: { type: 'number', huge: true }, note: { type: 'string' } },
    },
    {
      method: 'POST',
      path: '/api/admin/keys',
      auth: 'admin',
      base: { userId: ids.userId },
      fields: {
        userId: { type: 'string' },
        name: { type: 'string' },
        rpm: { type: 'integer', nullable: true },
        expiresAt: { type: 'string', nullable: true },
      },
    },
    {
      method: 'POST',
      path: '/api/admin/refunds',
      auth: 'admin',
      base: { transactionId: ids.txId },
      fields: { transactionId: { type: 'string' }, amount: { type: 'number', huge: true }, note: { type: 'string' } },
    },
    {
      method: 'POST',
      path: '/v1/chat/completions',
      auth: 'key',
      base: { model: 'acme/chat-1', messages: chatMsgs },
      fields: {
        model: { type: 'string' },
        messages: { type: 'array' },
        max_tokens: { type: 'integer', nullable: true },
        stream: { type: 'boolean', nullable: true },
      },
    },
    {
      method: 'POST',
      path: '/v1/messages',
      auth: 'key',
      base: { model: 'acme/chat-1', max_tokens: 16, messages: chatMsgs },
      fields: { model: { type: 'string' }, messages: { type: 'array' }, max_tokens: { type: 'integer' }, stream: { type: 'boolean' } },
    },
    {
      method: 'POST',
      path: '/v1/messages/count_tokens',
      auth: 'key',
      base: { model: 'acme/chat-1', messages: chatMsgs },
      fields: { model: { type: 'string' }, messages: { type: 'array' } },
    },
    {
      method: 'POST',
      path: '/v1/responses',
      auth: 'key',
      base: { model: 'acme/chat-1', input: 'hi' },
      fields: {
        model: { type: 'string' },
        max_output_tokens: { type: 'integer', nullable: true },
        stream: { type: 'boolean', nullable: true },
      },
    },
    { method: 'GET', path: '/api/keys', auth: 'session', query: { limit: 'int', cursor: 'cursor' } },
    { method: 'GET', path: '/api/logs', auth: 'session', query: { limit: 'int', cursor: 'cursor', keyId: 'text', model: 'text' } },
    {
      method: 'GET',
      path: '/api/wallet/transactions',
      auth: 'session',
      query: { limit: 'int', cursor: 'cursor', kind: 'enum', status: 'enum' },
    },
    {
      method: 'GET',
      path: '/api/public/models',
      auth: 'none',
      query: { page: 'int', pageSize: 'int', sort: 'enum', q: 'text', provider: 'text' },
    },
  ]
}

/** Path parameters: each path gets every hostile segment in place of :id. */
const PARAM_PATHS: [string, Endpoint['method'], Endpoint['auth']][] = [
  ['/api/keys/:id', 'DELETE', 'session'],
  ['/api/logs/:id', 'GET', 'session'],
  ['/api/wallet/transactions/:id', 'GET', 'session'],
  ['/api/payments/sandbox/:id/pay', 'POST', 'session'],
  ['/api/admin/keys/:id', 'DELETE', 'admin'],
  ['/api/admin/users/:id/credits', 'POST', 'admin'],
]
const HOSTILE_SEGMENTS = ['a%00', '%00', '%ED%A0%80', 'x'.repeat(300), '..%2F..%2Fetc', '%F0%9F%98']

interface Case {
  label: string
  method: string
  path: string
  auth: Endpoint['auth']
  body?: string
}

function cases(ids: { keyId: string; userId: string; txId: string }): Case[] {
  const out: Case[] = []
  for (const e of endpoints(ids)) {
    if (e.method === 'POST') {
      for (const [label, body] of GENERIC_BODIES)
        out.push({ label: `${e.path} ${label}`, method: e.method, path: e.path, auth: e.auth, body })
      for (const [field, spec] of Object.entries(e.fields ?? {})) {
        // A literal JSON.stringify cannot write: 1e999 parses to Infinity.
        if (spec.type === 'number' || spec.type === 'integer')
          out.push({
            label: `${e.path} ${field}=1e999`,
            method: e.method,
            path: e.path,
            auth: e.auth,
            body: JSON.stringify({ ...e.base, [field]: '#' }).replace('"#"', '1e999'),
          })
        for (const v of badValues(spec))
          out.push({
            label: `${e.path} ${field}=${JSON.stringify(v)}`,
            method: e.method,
            path: e.path,
            auth: e.auth,
            body: JSON.stringify({ ...e.base, [field]: v }),
          })
      }
    }
    for (const [q, kind] of Object.entries(e.query ?? {}))
      for (const v of HOSTILE_QUERY[kind])
        out.push({ label: `${e.path}?${q}=${v.slice(0, 20)}`, method: 'GET', path: `${e.path}?${q}=${v}`, auth: e.auth })
  }
  for (const [path, method, auth] of PARAM_PATHS)
    for (const seg of HOSTILE_SEGMENTS)
      out.push({
        label: `${method} ${path} ${seg.slice(0, 20)}`,
        method,
        path: path.replace(':id', seg),
        auth,
        body: method === 'POST' ? '{"amount":1}' : undefined,
      })
  // 10k messages / tools whose last element is wrong: validation has to walk them all.
  const msgs = many(10_000, () => ({ role: 'user', content: 'x' }), { role: 'nobody', content: 'x' })
  const tools = many(10_000, (i) => ({ type: 'function', function: { name: `f${i}`, parameters: { type: 'object' } } }), {
    type: 'function',
    function: { name: 1 },
  })
  out.push({
    label: 'chat 10k messages',
    method: 'POST',
    path: '/v1/chat/completions',
    auth: 'key',
    body: JSON.stringify({ model: 'acme/chat-1', messages: msgs }),
  })
  out.push({
    label: 'chat 10k tools',
    method: 'POST',
    path: '/v1/chat/completions',
    auth: 'key',
    body: JSON.stringify({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'x' }], tools }),
  })
  out.push({
    label: 'messages 10k messages',
    method: 'POST',
    path: '/v1/messages',
    auth: 'key',
    body: JSON.stringify({ model: 'acme/chat-1', max_tokens: 8, messages: msgs }),
  })
  out.push({
    label: 'responses 10k tools',
    method: 'POST',
    path: '/v1/responses',
    auth: 'key',
    body: JSON.stringify({
      model: 'acme/chat-1',
      input: 'x',
      tools: many(10_000, (i) => ({ type: 'function', name: `f${i}`, parameters: {} }), { type: 'function', name: 7 }),
    }),
  })
  return out
}

for (const backends of ALL_BACKENDS)
  describe(`fuzz: hostile input on every endpoint (${backends.db}+${backends.store})`, () => {
    let gw: TestGateway
    let user: SignedIn
    let key: string
    let ids: { keyId: string; userId: string; txId: string }

    beforeAll(async () => {
      // The upstream is unreachable on purpose: an input the fuzz believed bad but the gateway
      // served would surface as a 502 and fail the test.
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
        ...CONSOLE_ENV,
        MAX_BODY_BYTES: String(MAX_BODY_BYTES),
        SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-for-fuzz',
        DEFAULT_RPM: '100000',
      })
      user = await signUp(gw)
      const funded = await gw.user(5)
      key = funded.key
      const res = (await gw.runtime.deps.db.execute(sql`select id from ledger_entries where user_id = ${funded.userId} limit 1`)) as any
      ids = { keyId: funded.keyId, userId: funded.userId, txId: String((Array.isArray(res) ? res : res.rows)[0].id) }
    }, 60_000)
    afterAll(() => gw?.stop(), 60_000)

    test('≥ 300 generated bad inputs: each a 4xx in its envelope with x-request-id; the books unchanged', async () => {
      const all = cases(ids)
      expect(all.length).toBeGreaterThanOrEqual(300)
      if (process.env.FUZZ_VERBOSE) console.log(`${all.length} cases`)
      const before = await snapshot(gw)
      const headersFor = (c: Case): Record<string, string> => {
        const h: Record<string, string> = { 'x-forwarded-for': freshIp(), origin: user.base, 'content-type': 'application/json' }
        if (c.auth === 'session') h.cookie = user.cookie!
        if (c.auth === 'admin') h.authorization = `Bearer ${ADMIN_TOKEN}`
        if (c.auth === 'key') h.authorization = `Bearer ${key}`
        return h
      }
      let checked = 0
      for (let i = 0; i < all.length; i += 6) {
        await Promise.all(
          all.slice(i, i + 6).map(async (c) => {
            const res = await fetch(`${user.base}${c.path}`, {
              method: c.method,
              headers: headersFor(c),
              body: c.body,
              signal: AbortSignal.timeout(60_000),
            })
            await expectRefusal(res, c.path, c.label)
            checked++
          }),
        )
      }
      expect(checked).toBe(all.length)
      await gw.settled()
      expect(await snapshot(gw)).toEqual(before)
    }, 300_000)
  })
