// Console test helpers: a browser-like client (its own IP behind our trusted proxy, a cookie
// jar, same-origin headers), a local fake of Stripe's API, and Stripe events as Stripe sends them.
import type { TestGateway } from '../helpers/gateway.ts'

export const JSON_HEADERS = { 'content-type': 'application/json' }

/** Env for a console test gateway: the test client connects from 127.0.0.1, a trusted proxy. */
export const CONSOLE_ENV = { TRUSTED_PROXIES: '127.0.0.1,::1' }

let ipSeq = 0
/** A client address no other client of this process uses (its own per-IP counters). */
export const freshIp = () => `10.${(process.pid >> 8) & 255}.${(++ipSeq >> 8) & 255}.${ipSeq & 255}`

export interface Browser {
  ip: string
  base: string
  cookie: string | undefined
  fetch(path: string, init?: RequestInit): Promise<Response>
  get(path: string): Promise<Response>
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>
  del(path: string): Promise<Response>
}

/**
 * Talks to a real listener as a browser at `ip` would through our proxy: X-Forwarded-For, the
 * page's Origin on writes, and the session cookie it was given (cleared on Max-Age=0).
 */
export function browser(gw: TestGateway, ip = freshIp()): Browser {
  const base = gw.listen()
  const b: Browser = {
    ip,
    base,
    cookie: undefined,
    async fetch(path, init = {}) {
      const headers = new Headers(init.headers)
      headers.set('x-forwarded-for', ip)
      if (b.cookie && !headers.has('cookie')) headers.set('cookie', b.cookie)
      const res = await fetch(`${base}${path}`, { ...init, headers, redirect: 'manual' })
      const set = res.headers.get('set-cookie')
      if (set?.startsWith('svc_session=')) b.cookie = /Max-Age=0(;|$)/.test(set) ? undefined : set.split(';')[0]
      return res
    },
    get: (path) => b.fetch(path),
    post: (path, body, headers = {}) =>
      b.fetch(path, {
        method: 'POST',
        headers: { ...JSON_HEADERS, origin: base, ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    del: (path) => b.fetch(path, { method: 'DELETE', headers: { origin: base } }),
  }
  return b
}

export interface SignedIn extends Browser {
  id: string
  email: string
  password: string
}

export async function signUp(
  gw: TestGateway,
  email = `${crypto.randomUUID()}@test.local`,
  password = 'correct horse battery',
): Promise<SignedIn> {
  const b = browser(gw)
  const res = await b.post('/api/auth/register', { email, password })
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`)
  const user = (await res.json()) as { id: string; email: string }
  return Object.assign(b, { ...user, password })
}

export const json = async <T = any>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T

export interface FakeStripe {
  url: string
  sessions: {
    id: string
    amount: number
    currency: string
    transactionId: string
    idempotencyKey: string | null
    successUrl: string | null
    cancelUrl: string | null
  }[]
  /** Answer the next create with this HTTP status (then back to normal). */
  failNext(status: number): void
  stop(): void
}

/** Answers POST /v1/checkout/sessions as Stripe does: form-encoded in, a session object out. */
export function startFakeStripe(): FakeStripe {
  const sessions: FakeStripe['sessions'] = []
  let failWith: number | undefined
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      if (req.method !== 'POST' || url.pathname !== '/v1/checkout/sessions')
        return Response.json({ error: { message: 'not found' } }, { status: 404 })
      if (!req.headers.get('authorization')?.startsWith('Bearer sk_test_'))
        return Response.json({ error: { type: 'invalid_request_error', message: 'bad key' } }, { status: 401 })
      if (failWith !== undefined) {
        const status = failWith
        failWith = undefined
        return Response.json({ error: { type: 'invalid_request_error', message: 'declined by the fake' } }, { status })
      }
      const form = new URLSearchParams(await req.text())
      const id = `cs_test_${crypto.randomUUID().replaceAll('-', '')}`
      const session = {
        id,
        amount: Number(form.get('line_items[0][price_data][unit_amount]')),
        currency: form.get('line_items[0][price_data][currency]') ?? '',
        transactionId: form.get('metadata[transactionId]') ?? '',
        idempotencyKey: req.headers.get('idempotency-key'),
        successUrl: form.get('success_url'),
        cancelUrl: form.get('cancel_url'),
      }
      sessions.push(session)
      return Response.json({
        id,
        object: 'checkout.session',
        url: `https://checkout.stripe.test/c/pay/${id}`,
        amount_total: session.amount,
        currency: session.currency,
        client_reference_id: form.get('client_reference_id'),
        metadata: { transactionId: session.transactionId },
        payment_status: 'unpaid',
        status: 'open',
      })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, sessions, failNext: (s) => void (failWith = s), stop: () => server.stop(true) }
}

export type StripeSession = { id: string; amount: number; currency: string; transactionId: string }

/** A Stripe event about a checkout session, as Stripe would send it (a fresh event id each time). */
export function checkoutEvent(
  type: string,
  s: StripeSession,
  paymentStatus: 'paid' | 'unpaid' = 'paid',
  eventId = `evt_${crypto.randomUUID().replaceAll('-', '')}`,
) {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: s.id,
        object: 'checkout.session',
        amount_total: s.amount,
        currency: s.currency,
        client_reference_id: s.transactionId,
        metadata: { transactionId: s.transactionId },
        payment_status: paymentStatus,
      },
    },
  })
}
