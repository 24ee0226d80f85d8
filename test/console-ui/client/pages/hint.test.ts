// The first-run hint in Chromium: curl, Python and JavaScript snippets with this server's /v1,
// the new key and the catalog's first model (a placeholder when the catalog cannot be read).
import { expect, test } from 'bun:test'
import { clientPage, ORIGIN } from '../../client-page.ts'

type Hint = typeof import('../../../../src/console-ui/client/pages/hint.ts')
const cp = clientPage({ hint: 'pages/hint.ts' }, { 'GET /api/public/models': { body: { items: [{ id: 'acme/chat-1' }] } } })

test('three snippets naming the key, the base URL and the first model', async () => {
  await cp.open()
  const r = await cp.page.evaluate(async () => {
    const { firstRunHint } = window.__client.hint as Hint
    const el = await firstRunHint('tg-secret-123')
    return {
      codes: [...el.querySelectorAll('pre code')].map((c) => c.textContent!),
      labels: [...el.querySelectorAll('.code-head span:first-child')].map((s) => s.textContent),
    }
  })
  expect(r.labels).toEqual(['curl', 'Python (openai)', 'JavaScript (openai)'])
  for (const code of r.codes) {
    expect(code).toContain('tg-secret-123')
    expect(code).toContain(`${ORIGIN}/v1`)
    expect(code).toContain('acme/chat-1')
  }
  expect(r.codes[0]).toStartWith(`curl ${ORIGIN}/v1/chat/completions`)
  expect(cp.calls.map((c) => `${c.path}${c.query}`)).toContain('/api/public/models?pageSize=1')
}, 60_000)

test('without a readable catalog the model is a placeholder', async () => {
  cp.stub({})
  await cp.open()
  const code = await cp.page.evaluate(async () => {
    const { firstRunHint } = window.__client.hint as Hint
    return (await firstRunHint('k')).querySelector('pre code')!.textContent
  })
  expect(code).toContain('"model": "MODEL_ID"')
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
