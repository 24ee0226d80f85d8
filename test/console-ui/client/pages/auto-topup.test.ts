// Auto top-up settings in Chromium: the saved settings shown (defaults when none), the notices
// (low balance, turned off after a failed charge), and saving sends the settings and says so.
import { expect, test } from 'bun:test'
import { clientPage } from '../../client-page.ts'

type Auto = typeof import('../../../../src/console-ui/client/pages/auto-topup.ts')
const saved = {
  enabled: false,
  threshold: null,
  amount: null,
  provider: null,
  paymentMethodSaved: false,
  inFlight: false,
  lowBalance: false,
  lastError: null,
  setupUrl: null,
}
const cp = clientPage({ auto: 'pages/auto-topup.ts' })
const topup = { min: 5, max: 500, providers: ['sandbox', 'stripe'] }

test('nothing saved yet: off, the defaults; sandbox needs no payment method, a card provider asks for one', async () => {
  cp.stub({ 'GET /api/wallet/auto-topup': { body: saved } })
  await cp.open('/console/topup')
  const r = await cp.page.evaluate(async (t) => {
    const el = await (window.__client.auto as Auto).autoTopupSection(t)
    const v = (n: string) => (el.querySelector(`[name=${n}]`) as HTMLInputElement).value
    return {
      enabled: (el.querySelector('#auto-enabled') as HTMLInputElement).checked,
      threshold: v('threshold'),
      amount: v('amount'),
      provider: v('provider'),
      hint: el.querySelector('form > p.hint')?.textContent,
      notices: el.querySelectorAll('.warn').length,
      stripeHint: (() => {
        const select = el.querySelector('[name=provider]') as HTMLSelectElement
        select.value = 'stripe'
        select.dispatchEvent(new Event('change'))
        return el.querySelector('form > p.hint')?.textContent
      })(),
    }
  }, topup)
  expect(r).toEqual({
    enabled: false,
    threshold: '5',
    amount: '25',
    provider: 'sandbox',
    hint: 'Sandbox top-ups need no payment method.',
    notices: 0,
    stripeHint: 'You will be asked to save a payment method.',
  })
}, 60_000)

test('saved settings and both notices', async () => {
  cp.stub({
    'GET /api/wallet/auto-topup': {
      body: {
        ...saved,
        enabled: true,
        threshold: 10,
        amount: 40,
        provider: 'stripe',
        paymentMethodSaved: true,
        lowBalance: true,
        inFlight: true,
        lastError: 'the card was declined',
      },
    },
  })
  await cp.open('/console/topup')
  const r = await cp.page.evaluate(async (t) => {
    const el = await (window.__client.auto as Auto).autoTopupSection(t)
    const v = (n: string) => (el.querySelector(`[name=${n}]`) as HTMLInputElement).value
    return {
      enabled: (el.querySelector('#auto-enabled') as HTMLInputElement).checked,
      values: [v('threshold'), v('amount'), v('provider')],
      notices: [...el.querySelectorAll('.warn')].map((p) => p.textContent),
    }
  }, topup)
  expect(r).toEqual({
    enabled: true,
    values: ['10', '40', 'stripe'],
    notices: ['Low balance: under your threshold of $10.00. A top-up is on its way.', 'Auto top-up was turned off: the card was declined'],
  })
}, 60_000)

test('saving sends the settings as numbers and says it was saved', async () => {
  cp.stub({
    'GET /api/wallet/auto-topup': { body: saved },
    'PUT /api/wallet/auto-topup': (body) => ({ body: { ...saved, ...(body as object), paymentMethodSaved: true } }),
  })
  await cp.open('/console/topup')
  const status = await cp.page.evaluate(async (t) => {
    const el = await (window.__client.auto as Auto).autoTopupSection(t)
    document.getElementById('main')!.append(el)
    ;(el.querySelector('#auto-enabled') as HTMLInputElement).checked = true
    ;(el.querySelector('[name=threshold]') as HTMLInputElement).value = '7.5'
    ;(el.querySelector('[name=amount]') as HTMLInputElement).value = '30'
    el.querySelector('form')!.requestSubmit()
    await new Promise((res) => setTimeout(res, 300))
    return el.querySelector('.success')?.textContent
  }, topup)
  expect(status).toBe('Auto top-up saved.')
  expect(cp.calls.at(-1)).toMatchObject({ method: 'PUT', body: { enabled: true, threshold: 7.5, amount: 30, provider: 'sandbox' } })
}, 60_000)

test('an amount outside the top-up range is refused by the form', async () => {
  cp.stub({ 'GET /api/wallet/auto-topup': { body: saved } })
  await cp.open('/console/topup')
  const before = cp.calls.length
  const invalid = await cp.page.evaluate(async (t) => {
    const el = await (window.__client.auto as Auto).autoTopupSection(t)
    document.getElementById('main')!.append(el)
    ;(el.querySelector('[name=amount]') as HTMLInputElement).value = '501'
    el.querySelector('form')!.requestSubmit()
    await new Promise((res) => setTimeout(res, 100))
    return el.querySelector('[name=amount]')!.getAttribute('aria-invalid')
  }, topup)
  expect(invalid).toBe('true')
  // only the settings were read; nothing was saved
  expect(cp.calls.slice(before).map((c) => c.method)).toEqual(['GET'])
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
