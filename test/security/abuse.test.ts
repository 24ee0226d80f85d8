// Table tests of docs/security.md over HTTP, on both backend pairs: vendor members dropped from
// chat pass-through, count_tokens bounded and cached, Stripe's tolerance both ways and signed
// events without an id, security headers, the admin API's rate limit, CORS for /v1.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Stripe from 'stripe'
import { ADMIN_TOKEN, ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { CONSOLE_ENV, json, signUp, type SignedIn } from '../console/helpers.ts'
import { expectRefusal, snapshot } from './hostile.ts'

const WEBHOOK_SECRET = 'whsec_security_suite'
const stripe = new Stripe('sk_test_unused')
const sign = (payload: string, timestamp?: number) =>
  stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET, timestamp })
const chunk = (extra: Record<string, unknown>, delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'upstream-secret-model', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`

for (const backends of ALL_BACKENDS) {
  describe(`abuse on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let chatUp: FakeUpstream
    let anthropicUp: FakeUpstream
    let u: SignedIn
    beforeAll(async () => {
      chatUp = startFakeUpstream()
      anthropicUp = startFakeUpstream({ kind: 'json', body: { input_tokens: 42 } })
      const catalog = simpleCatalog([{ id: 'gw-chat', url: chatUp.url }])
      catalog.gateways.push({
        id: 'gw-anthropic',
        protocol: 'anthropic-messages',
        baseUrl: `${anthropicUp.url}/v1`,
        apiKey: 'sk-ant-secret',
        timeoutMs: 2_000,
      })
      catalog.models.push({ ...catalog.models[0]!, id: 'acme/claude-1', routes: [{ gateway: 'gw-anthropic', model: 'claude-upstream' }] })
      gw = await startTestGateway(backends, catalog, {
        ...CONSOLE_ENV,
        STRIPE_SECRET_KEY: 'sk_test_tollgate',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: 'http://127.0.0.1:9',
        CORS_ORIGINS: 'https://app.example',
      })
      u = await signUp(gw)
    }, 60_000)
    afterAll(async () => {
      await gw?.stop()
      chatUp?.stop()
      anthropicUp?.stop()
    }, 60_000)

    test('chat pass-through drops vendor members (x_groq with its request id, provider) and keeps the bytes of clean chunks', async () => {
      const clean = chunk({}, { role: 'assistant', content: 'Hi' })
      const vendor = chunk({ x_groq: { id: 'req_upstream_identity' }, provider: 'Groq' }, { content: ' there' })
      const last = chunk(
        { usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }, x_groq: { usage: { queue_time: 0.1 } } },
        {},
        'stop',
      )
      chatUp.script({ kind: 'sse', text: clean + vendor + last + 'data: [DONE]\n\n' })
      const funded = await gw.user(1)
      const res = await gw.request('/v1/chat/completions', {
        method: 'POST',
        headers: bearer(funded.key),
        body: chatBody({ stream: true }),
      })
      const text = await res.text()
      expect(res.status).toBe(200)
      expect(text).not.toContain('x_groq')
      expect(text).not.toContain('req_upstream_identity')
      expect(text).not.toContain('"provider"')
      expect(text).not.toContain('upstream-secret-model')
      // The clean chunk is the upstream's bytes with only the model spliced.
      expect(text).toContain(clean.replace('upstream-secret-model', 'acme/chat-1'))
      expect(text).toContain('" there"')
      // JSON answers too.
      chatUp.script({
        kind: 'json',
        body: {
          id: 'c',
          object: 'chat.completion',
          created: 1,
          model: 'upstream-secret-model',
          choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop', native_finish_reason: 'end_turn' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          x_groq: { id: 'req_2' },
        },
      })
      const plain = await json(gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(funded.key), body: chatBody() }))
      expect(Object.keys(plain).sort()).toEqual(
        ['choices', 'created', 'id', 'model', 'object', 'svc', 'usage'].filter((k) => k in plain).sort(),
      )
      expect(JSON.stringify(plain)).not.toContain('req_2')
      expect(plain.choices[0]).not.toHaveProperty('native_finish_reason')
      await gw.settled()
      const books = await gw.books(funded.userId)
      expect(books.balance).toBe(books.ledgerSum)
    })

    test('count_tokens: counted in a window of its own at the key’s rpm (429 beyond), identical requests asked upstream once', async () => {
      const k = await gw.user(0, { rpm: 3 })
      const body = JSON.stringify({ model: 'acme/claude-1', messages: [{ role: 'user', content: `count me ${backends.db}` }] })
      const seenBefore = anthropicUp.seen.filter((s) => s.path === '/v1/messages/count_tokens').length
      const answers = []
      for (let i = 0; i < 3; i++)
        answers.push(await gw.request('/v1/messages/count_tokens', { method: 'POST', headers: bearer(k.key), body }))
      for (const a of answers) expect(await json(a)).toEqual({ input_tokens: 42 })
      expect(anthropicUp.seen.filter((s) => s.path === '/v1/messages/count_tokens').length - seenBefore).toBe(1)
      const limited = await gw.request('/v1/messages/count_tokens', { method: 'POST', headers: bearer(k.key), body })
      expect(limited.status).toBe(429)
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
      expect((await expectRefusal(limited, '/v1/messages/count_tokens')).error.type).toBe('rate_limit_error')
      // Another key has its own window; a $0 key still counts (free), but never beyond its rpm.
      const other = await gw.user(0, { rpm: 1 })
      expect((await gw.request('/v1/messages/count_tokens', { method: 'POST', headers: bearer(other.key), body })).status).toBe(200)
      expect((await gw.request('/v1/messages/count_tokens', { method: 'POST', headers: bearer(other.key), body })).status).toBe(429)
    })

    test('Stripe: a signature dated 10 minutes ahead or behind → 400; a signed event without id → 400; nothing recorded', async () => {
      const before = await snapshot(gw)
      const event = JSON.stringify({
        id: 'evt_future',
        object: 'event',
        type: 'checkout.session.completed',
        data: { object: { id: 'cs_1', metadata: { transactionId: 'x' } } },
      })
      const now = Math.floor(Date.now() / 1000)
      for (const t of [now + 600, now - 600]) {
        const res = await gw.request('/api/webhooks/stripe', {
          method: 'POST',
          headers: { 'stripe-signature': await sign(event, t), 'content-type': 'application/json' },
          body: event,
        })
        expect(res.status, String(t - now)).toBe(400)
        await expectRefusal(res, '/api/webhooks/stripe')
      }
      for (const bad of [
        { object: 'event', type: 'checkout.session.completed', data: { object: {} } },
        { id: 'evt_x', object: 'event' },
        { id: 'evt_y', type: 'checkout.session.completed' },
      ]) {
        const text = JSON.stringify(bad)
        const res = await gw.request('/api/webhooks/stripe', {
          method: 'POST',
          headers: { 'stripe-signature': await sign(text), 'content-type': 'application/json' },
          body: text,
        })
        expect(res.status, text).toBe(400)
        await expectRefusal(res, '/api/webhooks/stripe')
      }
      // A signed event with NUL in its id is refused at the edge, before Postgres sees it.
      const nul = '{"id":"evt_\\u0000","object":"event","type":"x","data":{"object":{}}}'
      expect(
        (await gw.request('/api/webhooks/stripe', { method: 'POST', headers: { 'stripe-signature': await sign(nul) }, body: nul })).status,
      ).toBe(400)
      expect(await snapshot(gw)).toEqual(before)
    })

    test('security headers on every console response, errors included; the new key’s secret is no-store', async () => {
      for (const res of [
        await u.get('/api/public/models'),
        await u.get('/api/wallet/account'),
        await gw.request('/api/wallet/account'),
        await gw.request('/api/admin/users', { method: 'POST' }),
        await gw.request('/api/nope'),
      ]) {
        expect(res.headers.get('x-content-type-options')).toBe('nosniff')
        expect(res.headers.get('x-frame-options')).toBe('DENY')
        expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
        expect(res.headers.get('referrer-policy')).toBe('same-origin')
        expect(res.headers.get('x-request-id')).toBeTruthy()
        // Plain http here: no HSTS.
        expect(res.headers.get('strict-transport-security')).toBeNull()
      }
      expect((await u.get('/api/public/models')).headers.get('cache-control')).toContain('public')
      const created = await u.post('/api/keys', { name: 'secret-bearing' })
      expect(created.status).toBe(201)
      expect(created.headers.get('cache-control')).toBe('no-store')
      // Behind a trusted proxy that says https: HSTS.
      const tls = await u.fetch('/api/public/models', { headers: { 'x-forwarded-proto': 'https' } })
      expect(tls.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/)
      // /v1 answers are the protocols' own: no console headers there.
      expect((await gw.request('/v1/models')).headers.get('x-frame-options')).toBeNull()
    })

    test('admin API: rate-limited per address before the token is checked; a wrong token of any length is 401', async () => {
      const call = (token: string) =>
        u.fetch('/api/admin/keys/key_none', { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })
      for (const token of ['x', 'a'.repeat(ADMIN_TOKEN.length), ADMIN_TOKEN + 'x', 'b'.repeat(4096)])
        expect((await call(token)).status).toBe(401)
      expect((await call(ADMIN_TOKEN)).status).toBe(404)
      const results = await Promise.all(Array.from({ length: 600 }, () => call('wrong-token-guess')))
      const limited = results.filter((r) => r.status === 429)
      expect(limited.length).toBe(5)
      expect(limited[0]!.headers.get('retry-after')).toMatch(/^\d+$/)
      // Over the limit even the right token waits: a guesser cannot tell a hit from a miss.
      expect((await call(ADMIN_TOKEN)).status).toBe(429)
    }, 60_000)

    test('CORS for /v1 (CORS_ORIGINS): preflight answered for an allowed origin, refused for others; answers carry the grant', async () => {
      const pre = await gw.request('/v1/chat/completions', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, x-stainless-os, x-evil',
        },
      })
      expect(pre.status).toBe(204)
      expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example')
      expect(pre.headers.get('access-control-allow-methods')).toContain('POST')
      expect(pre.headers.get('access-control-allow-headers')).toBe('authorization, content-type, x-stainless-os')
      const other = await gw.request('/v1/messages', {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      })
      expect(other.status).toBe(204)
      expect(other.headers.get('access-control-allow-origin')).toBeNull()
      const funded = await gw.user(0)
      const denied = await gw.request('/v1/chat/completions', {
        method: 'POST',
        headers: { ...bearer(funded.key), origin: 'https://app.example' },
        body: '{',
      })
      expect(denied.status).toBe(400)
      expect(denied.headers.get('access-control-allow-origin')).toBe('https://app.example')
      expect(denied.headers.get('access-control-expose-headers')).toContain('x-request-id')
      const models = await gw.request('/v1/models', { headers: { ...bearer(funded.key), origin: 'https://evil.example' } })
      expect(models.status).toBe(200)
      expect(models.headers.get('access-control-allow-origin')).toBeNull()
      // The console never grants CORS.
      expect(
        (await gw.request('/api/public/models', { headers: { origin: 'https://app.example' } })).headers.get('access-control-allow-origin'),
      ).toBeNull()
    })
  })
}

describe('CORS off by default', () => {
  test('OPTIONS /v1/* without CORS_ORIGINS → 404 and no grant', async () => {
    const gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]))
    try {
      const res = await gw.request('/v1/chat/completions', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      })
      expect(res.status).toBe(404)
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
    } finally {
      await gw.stop()
    }
  }, 60_000)
})
