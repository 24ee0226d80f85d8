// The key form in Chromium: a new key posts only what was filled (lists split on commas and
// lines, a date as the end of that UTC day); editing prefills every setting and sends the members
// changed, an emptied field clearing its setting; a limit the operator set is noted under its
// field; the API's answer reaches `done`.
import { expect, test } from 'bun:test'
import { clientPage } from '../../client-page.ts'

type KeyForm = typeof import('../../../../src/console-ui/client/pages/key-form.ts')
const key = {
  id: 'key 1',
  name: 'ci',
  prefix: 'tg-abc',
  status: 'active',
  limit: 25,
  spent: 1,
  remaining: 24,
  rpm: 60,
  expiresAt: '2099-05-06T23:59:59Z',
  lastUsedAt: null,
  createdAt: '2026-01-01T00:00:00Z',
  models: ['acme/*', 'beta/chat-2'],
  ipAllowlist: ['10.0.0.0/8'],
  tpm: 1000,
  maxConcurrent: null,
  limitReset: 'monthly',
  resetsAt: null,
  operatorLimits: { limit: 25, limitReset: 'monthly', expiresAt: '2099-05-06T23:59:59Z' },
}
const cp = clientPage(
  { keyForm: 'pages/key-form.ts' },
  {
    'POST /api/keys': (body) => ({ status: 201, body: { id: 'key_new', key: 'tg-secret', echo: body } }),
    'PATCH /api/keys/key%201': (body) => ({ body: { id: 'key 1', echo: body } }),
  },
)

test('a new key: what was filled, lists split, the date as the end of its UTC day; the form is emptied after', async () => {
  await cp.open('/console/keys')
  const r = await cp.page.evaluate(async () => {
    const { keyForm } = window.__client.keyForm as KeyForm
    const answers: unknown[] = []
    const form = keyForm((a) => void answers.push(a))
    document.getElementById('main')!.append(form)
    const set = (name: string, value: string) => ((form.querySelector(`[name=${name}]`) as HTMLInputElement).value = value)
    set('name', '  prod  ')
    set('limit', '12.5')
    set('models', 'acme/*,\nbeta/chat-2  gamma/x')
    set('expiresAt', '2099-01-31')
    form.requestSubmit()
    // Until the answer arrives (a loaded machine may take seconds), then one turn for what follows it.
    for (let i = 0; i < 200 && answers.length === 0; i++) await new Promise((res) => setTimeout(res, 50))
    await new Promise((res) => setTimeout(res, 50))
    return { answers, h2: form.querySelector('h2')!.textContent, name: (form.querySelector('[name=name]') as HTMLInputElement).value }
  })
  expect(r.h2).toBe('New API key')
  expect(r.answers).toHaveLength(1)
  expect((r.answers[0] as { echo: unknown }).echo).toEqual({
    name: 'prod',
    limit: 12.5,
    limitReset: null,
    rpm: null,
    tpm: null,
    maxConcurrent: null,
    models: ['acme/*', 'beta/chat-2', 'gamma/x'],
    ipAllowlist: null,
    expiresAt: '2099-01-31T23:59:59Z',
  })
  expect(r.name).toBe('')
}, 60_000)

test('editing: prefilled; emptied fields clear their setting; sent as PATCH to the key', async () => {
  await cp.open('/console/keys')
  const r = await cp.page.evaluate(async (k) => {
    const { keyForm } = window.__client.keyForm as KeyForm
    const answers: unknown[] = []
    const form = keyForm((a) => void answers.push(a), k as Parameters<KeyForm['keyForm']>[1])
    document.getElementById('main')!.append(form)
    const get = (name: string) => (form.querySelector(`[name=${name}]`) as HTMLInputElement).value
    const prefilled = Object.fromEntries(
      ['name', 'limit', 'limitReset', 'rpm', 'tpm', 'maxConcurrent', 'models', 'ipAllowlist', 'expiresAt'].map((n) => [n, get(n)]),
    )
    ;(form.querySelector('[name=name]') as HTMLInputElement).value = ''
    ;(form.querySelector('[name=ipAllowlist]') as HTMLInputElement).value = ''
    const noted = [...form.querySelectorAll('.field.operator-limit [name]')].map((e) => [
      e.getAttribute('name'),
      e.closest('.field')!.querySelector('.hint')?.textContent,
    ])
    form.requestSubmit()
    // Until the answer arrives (a loaded machine may take seconds), then one turn for what follows it.
    for (let i = 0; i < 200 && answers.length === 0; i++) await new Promise((res) => setTimeout(res, 50))
    await new Promise((res) => setTimeout(res, 50))
    return {
      prefilled,
      noted,
      answers,
      h2: form.querySelector('h2')!.textContent,
      button: form.querySelector('button[type=submit]')!.textContent,
    }
  }, key)
  expect(r.h2).toBe('Edit key ci')
  expect(r.button).toBe('Save changes')
  expect(r.prefilled).toEqual({
    name: 'ci',
    limit: '25',
    limitReset: 'monthly',
    rpm: '60',
    tpm: '1000',
    maxConcurrent: '',
    models: 'acme/*, beta/chat-2',
    ipAllowlist: '10.0.0.0/8',
    expiresAt: '2099-05-06',
  })
  // The operator's limits say so; their fields keep a hint to show it under.
  const note = 'Set by the operator: you may tighten it, not lift or loosen it.'
  expect(r.noted).toEqual([
    ['limit', note],
    ['limitReset', undefined],
    ['expiresAt', note],
  ])
  // Only the members changed: the operator's expiry, shown as a day, is not pushed to its end.
  expect((r.answers[0] as { echo: unknown }).echo).toEqual({ name: '', ipAllowlist: null })
  expect(cp.calls.at(-1)).toMatchObject({ method: 'PATCH', path: '/api/keys/key%201' })
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
