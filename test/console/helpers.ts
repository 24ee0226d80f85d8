// Console test helpers: a signed-in user (cookie), and a local fake of Stripe's API.
import type { TestGateway } from '../helpers/gateway.ts'

export const JSON_HEADERS = { 'content-type': 'application/json' }

export async function signUp(gw: TestGateway, email = `${crypto.randomUUID()}@test.local`, password = 'correct horse battery') {
  const res = await gw.request('/api/auth/register', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email, password }) })
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`)
  const user = (await res.json()) as { id: string; email: string }
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!
  return { ...user, cookie, password, headers: { ...JSON_HEADERS, cookie } }
}

export interface FakeStripe {
  url: string
  sessions: { id: string; amount: number; currency: string; transactionId: string }[]
  stop(): void
}

/** Answers POST /v1/checkout/sessions like Stripe does (form-encoded in, session JSON out). */
export function startFakeStripe(): FakeStripe {
  const sessions: FakeStripe['sessions'] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      if (req.method !== 'POST' || url.pathname !== '/v1/checkout/sessions') return Response.json({ error: { message: 'not found' } }, { status: 404 })
      if (!req.headers.get('authorization')?.startsWith('Bearer sk_test_')) return Response.json({ error: { message: 'bad key' } }, { status: 401 })
      const form = new URLSearchParams(await req.text())
      const id = `cs_test_${crypto.randomUUID().replaceAll('-', '')}`
      const session = {
        id,
        amount: Number(form.get('line_items[0][price_data][unit_amount]')),
        currency: form.get('line_items[0][price_data][currency]') ?? '',
        transactionId: form.get('metadata[transactionId]') ?? '',
      }
      sessions.push(session)
      return Response.json({ id, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}`, amount_total: session.amount, currency: session.currency, metadata: { transactionId: session.transactionId }, payment_status: 'unpaid', status: 'open' })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, sessions, stop: () => server.stop(true) }
}

/** A Stripe event for a checkout session, as Stripe would send it. */
export function checkoutEvent(type: string, s: { id: string; amount: number; currency: string; transactionId: string }, paid = true) {
  return JSON.stringify({
    id: `evt_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: s.id, object: 'checkout.session', amount_total: s.amount, currency: s.currency, client_reference_id: s.transactionId, metadata: { transactionId: s.transactionId }, payment_status: paid ? 'paid' : 'unpaid' } },
  })
}
