// Auto top-up settings on the top-up page (docs/console.md "Auto top-up"): on/off, the threshold,
// the amount and the provider; a notice while the balance is under the threshold, and why auto
// top-up was turned off after a failed charge. A provider that must save a card first answers a
// setup page, where the browser goes next.
import { api } from '../api.ts'
import { append, h } from '../dom.ts'
import { field, formError, onSubmit } from '../forms.ts'
import { usd } from '../format.ts'
import type { AutoTopup } from '../types.ts'

function notices(s: AutoTopup) {
  return [
    s.lowBalance &&
      h(
        'p',
        { class: 'card warn', role: 'status' },
        `Low balance: under your threshold of ${usd(s.threshold ?? 0)}.`,
        s.inFlight ? ' A top-up is on its way.' : '',
      ),
    s.lastError && h('p', { class: 'card warn', role: 'alert' }, `Auto top-up was turned off: ${s.lastError}`),
  ]
}

export async function autoTopupSection(topup: { min: number; max: number; providers: string[] }) {
  const s = await api<AutoTopup>('/api/wallet/auto-topup')
  const enabled = h('input', { type: 'checkbox', id: 'auto-enabled', name: 'enabled', checked: s.enabled })
  const threshold = field({
    name: 'threshold',
    label: 'When the balance falls under (USD)',
    type: 'number',
    required: true,
    min: 0,
    step: 0.01,
    inputmode: 'decimal',
    value: s.threshold ?? 5,
  })
  const amount = field({
    name: 'amount',
    label: 'Add (USD)',
    type: 'number',
    required: true,
    min: topup.min,
    max: topup.max,
    step: 0.01,
    inputmode: 'decimal',
    value: s.amount ?? Math.max(25, topup.min),
    hint: `From ${usd(topup.min)} to ${usd(topup.max)}.`,
  })
  const provider = field({ name: 'provider', label: 'Pay with', options: topup.providers.map((p) => [p, p]) })
  if (s.provider) provider.input.value = s.provider
  const fields = [threshold, amount, provider]
  // Sandbox top-ups move no money: there is no payment method to save.
  const methodText = () =>
    provider.input.value === 'sandbox'
      ? 'Sandbox top-ups need no payment method.'
      : s.paymentMethodSaved
        ? 'A payment method is saved.'
        : 'You will be asked to save a payment method.'
  const methodHint = h('p', { class: 'hint' }, methodText())
  provider.input.addEventListener('change', () => {
    methodHint.textContent = methodText()
  })
  const status = h('div', { 'aria-live': 'polite' }, notices(s))
  const error = formError()
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Save auto top-up')
  const form = h(
    'form',
    { class: 'card narrow', novalidate: true, 'aria-labelledby': 'auto-title' },
    h('h2', { id: 'auto-title' }, 'Auto top-up'),
    h('label', { class: 'checkbox', for: 'auto-enabled' }, enabled, ' Top up automatically'),
    fields.map((f) => f.wrap),
    methodHint,
    h('div', { class: 'actions' }, submit),
    error,
  )
  onSubmit(form, fields, submit, error, async () => {
    const body = {
      enabled: enabled.checked,
      threshold: Number(threshold.input.value),
      amount: Number(amount.input.value),
      provider: provider.input.value,
    }
    const saved = await api<AutoTopup>('/api/wallet/auto-topup', { method: 'PUT', body })
    if (saved.setupUrl) return location.assign(saved.setupUrl)
    status.replaceChildren()
    append(status, h('p', { class: 'card success', role: 'status' }, 'Auto top-up saved.'), notices(saved))
  })
  return h('section', null, status, form)
}
