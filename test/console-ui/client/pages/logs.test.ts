// Request logs in Chromium: the key filter lists the keys, the URL's filters go to the API, each
// row names its key, and the columns read as a person reads them.
import { expect, test } from 'bun:test'
import { clientPage } from '../../client-page.ts'

type Logs = typeof import('../../../../src/console-ui/client/pages/logs.ts')
const log = (o: object) => ({
  id: 'req_1',
  keyId: 'key_a',
  model: 'acme/chat-1',
  status: 200,
  errorCode: null,
  stream: false,
  inputTokens: 1234,
  outputTokens: 56,
  cost: 0.0012,
  latencyMs: 1500,
  createdAt: '2026-11-24T16:40:00Z',
  ...o,
})
const cp = clientPage(
  { logs: 'pages/logs.ts' },
  {
    'GET /api/keys': {
      body: {
        items: [
          { id: 'key_a', name: 'ci', prefix: 'tg-aaa' },
          { id: 'key_b', name: '', prefix: 'tg-bbb' },
        ],
        nextCursor: null,
      },
    },
    'GET /api/logs': {
      body: { items: [log({}), log({ id: 'req_2', keyId: 'key_b', status: 502, errorCode: 'UPSTREAM_ERROR', cost: 0 })], nextCursor: null },
    },
  },
)

test('filters and rows', async () => {
  await cp.open('/console/logs?status=error&keyId=key_b')
  const r = await cp.page.evaluate(async () => {
    const { logsPage } = window.__client.logs as Logs
    const view = document.getElementById('main')!
    await logsPage(view, {}, new URLSearchParams(location.search))
    return {
      keyOptions: [...view.querySelectorAll<HTMLOptionElement>('select[name=keyId] option')].map((o) => [o.value, o.text]),
      heads: [...view.querySelectorAll('th')].map((th) => th.textContent),
      rows: [...view.querySelectorAll<HTMLTableRowElement>('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)),
      statusClasses: [...view.querySelectorAll('tbody tr td:nth-child(4) span')].map((s) => s.className),
    }
  })
  expect(r.keyOptions).toEqual([
    ['', 'All keys'],
    ['key_a', 'ci (tg-aaa…)'],
    ['key_b', 'unnamed (tg-bbb…)'],
  ])
  expect(r.heads).toEqual(['Time', 'Model', 'Key', 'Status', 'Tokens in / out', 'Cost', 'Latency', 'Request id'])
  expect(r.rows).toEqual([
    ['2026-11-24 16:40 UTC', 'acme/chat-1', 'ci', '200', '1,234 / 56', '$0.0012', '1,500 ms', 'req_1'],
    ['2026-11-24 16:40 UTC', 'acme/chat-1', 'tg-bbb', '502 UPSTREAM_ERROR', '1,234 / 56', '$0.00', '1,500 ms', 'req_2'],
  ])
  expect(r.statusClasses).toEqual(['ok', 'bad'])
  const query = new URLSearchParams(cp.calls.filter((c) => c.path === '/api/logs').at(-1)!.query)
  expect(Object.fromEntries(query)).toEqual({ keyId: 'key_b', status: 'error', limit: '50' })
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
