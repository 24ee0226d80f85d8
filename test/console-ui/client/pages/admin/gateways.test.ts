// Models and gateways in Chromium: per gateway its breaker and traffic, per route a switch that
// calls the admin API with the route and redraws; reloading the catalog; refusals said.
import { expect, test } from 'bun:test'
import { clientPage } from '../../../client-page.ts'

type Gateways = typeof import('../../../../../src/console-ui/client/pages/admin/gateways.ts')
const w = (calls: number, errorRate: number | null, p50Ms: number | null) => ({ calls, errors: 0, errorRate, p50Ms })
let enabled = true
const view = () => ({
  body: {
    inFlight: 3,
    items: [
      {
        id: 'gw-a',
        protocol: 'openai-chat',
        auth: 'azure-entra',
        enabled: true,
        breaker: 'closed',
        last5m: w(1200, 0.025, 340),
        last60m: w(0, null, null),
        routes: [
          {
            model: 'acme/chat-1',
            upstreamModel: 'up-1',
            enabled,
            breaker: 'open',
            nextProbeInMs: 0,
            last5m: w(10, 0.5, 12),
            last60m: w(10, 0.5, 12),
          },
        ],
      },
    ],
  },
})
const cp = clientPage(
  { gateways: 'pages/admin/gateways.ts' },
  {
    'GET /api/auth/me': { body: { id: 'usr_op', email: 'op@example.com', role: 'admin' } },
    'GET /api/admin/gateways': () => view(),
    'POST /api/admin/routes/disable': () => ((enabled = false), { body: { ok: true } }),
    'POST /api/admin/catalog/reload': {
      status: 503,
      body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'The database did not answer.' } },
    },
  },
)

test('traffic, switching a route off, and a refused reload', async () => {
  await cp.open('/console/admin/gateways')
  const r = await cp.page.evaluate(async () => {
    const main = document.getElementById('main')!
    await (window.__client.gateways as Gateways).adminGatewaysPage(main)
    const section = () => main.querySelector('section[aria-labelledby=gw-gw-a]')!
    const first = {
      inflight: main.querySelector('p.muted')?.textContent,
      heading: section().querySelector('h2')!.textContent,
      traffic: section().querySelector('p.muted')!.textContent,
      row: [...section().querySelectorAll<HTMLTableRowElement>('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent))[0],
    }
    ;(section().querySelector('tbody button') as HTMLButtonElement).click()
    await new Promise((res) => setTimeout(res, 400))
    const after = [...section().querySelectorAll<HTMLTableRowElement>('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent))[0]
    ;([...main.querySelectorAll('button')].find((b) => b.textContent === 'Reload the catalog') as HTMLButtonElement).click()
    await new Promise((res) => setTimeout(res, 400))
    return { first, after, error: main.querySelector('.form-error')?.textContent }
  })
  expect(r.first).toEqual({
    inflight: '3 call(s) in flight on this instance.',
    heading: 'gw-a closed',
    traffic:
      'openai-chat · auth azure-entra · last 5 min: 1,200 calls · 2.5 % errors · p50 340 ms · last 60 min: 0 calls · — errors · p50 —',
    row: [
      'acme/chat-1',
      'open',
      '10 calls · 50.0 % errors · p50 12 ms',
      '10 calls · 50.0 % errors · p50 12 ms',
      'on',
      'Disable acme/chat-1 on gw-a',
    ],
  })
  expect(r.after?.slice(4)).toEqual(['off', 'Enable acme/chat-1 on gw-a'])
  expect(cp.calls.find((c) => c.path === '/api/admin/routes/disable')?.body).toEqual({
    model: 'acme/chat-1',
    gateway: 'gw-a',
    upstreamModel: 'up-1',
  })
  expect(r.error).toBe('The database did not answer.')
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
