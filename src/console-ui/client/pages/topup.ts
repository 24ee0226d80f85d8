// Top up: an amount within the server's policy and a provider; the browser goes to the provider's
// checkout (Stripe Checkout or the sandbox page) and comes back to the return page, which
// follows the top-up until its webhook has settled it and shows the credited balance. Below it,
// the auto top-up settings (auto-topup.ts).
import { api, ApiError } from '../api.ts'
import { h } from '../dom.ts'
import { field, formError, onSubmit } from '../forms.ts'
import { usd } from '../format.ts'
import type { Query } from '../router.ts'
import type { Account, Txn } from '../types.ts'
import { badge, stat } from '../ui.ts'
import { autoTopupSection } from './auto-topup.ts'

const PROVIDER: Record<string, string> = { stripe: 'Card (Stripe Checkout)', sandbox: 'Sandbox (test payments, no money moves)' }
const PRESETS = [10, 25, 50, 100]

export async function topupPage(view: HTMLElement) {
  view.append(h('h1', { tabindex: -1 }, 'Top up'))
  const account = await api<Account>('/api/wallet/account')
  view.append(h('dl', { class: 'stats' }, stat('Balance', usd(account.balance), 'balance'), stat('Available', usd(account.available))))
  const { min, max, providers } = account.topup
  if (providers.length === 0)
    return void view.append(h('p', { class: 'card' }, 'Top-ups are not enabled on this server. Ask its operator to credit your account.'))
  const amount = field({
    name: 'amount',
    label: 'Amount (USD)',
    type: 'number',
    required: true,
    min,
    max,
    step: 0.01,
    inputmode: 'decimal',
    value: Math.min(Math.max(25, min), max),
    hint: `From ${usd(min)} to ${usd(max)}.`,
  })
  const presets = h(
    'div',
    { class: 'presets', role: 'group', 'aria-label': 'Common amounts' },
    PRESETS.filter((p) => p >= min && p <= max).map((p) => {
      const b = h('button', { type: 'button', class: 'secondary' }, usd(p).replace('.00', ''))
      b.addEventListener('click', () => ((amount.input.value = String(p)), amount.input.focus()))
      return b
    }),
  )
  const radios = providers.map((p, i) =>
    h('label', { class: 'radio' }, h('input', { type: 'radio', name: 'provider', value: p, checked: i === 0 }), PROVIDER[p] ?? p),
  )
  const error = formError()
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Continue to payment')
  const form = h(
    'form',
    { class: 'card narrow', novalidate: true, 'aria-labelledby': 'topup-title' },
    h('h2', { id: 'topup-title' }, 'Add credit'),
    amount.wrap,
    presets,
    h('fieldset', null, h('legend', null, 'Pay with'), radios),
    h('div', { class: 'actions' }, submit),
    error,
  )
  onSubmit(form, [amount], submit, error, async () => {
    const provider = (form.querySelector('input[name=provider]:checked') as HTMLInputElement).value
    const started = await api<{ checkoutUrl: string }>('/api/wallet/topup', {
      method: 'POST',
      body: { amount: Number(amount.input.value), provider },
    })
    location.assign(started.checkoutUrl)
  })
  view.append(
    form,
    h(
      'p',
      { class: 'muted' },
      'Your balance is credited when the payment provider confirms the payment. ',
      h('a', { href: '/console/transactions?kind=topup' }, 'Past top-ups'),
    ),
    await autoTopupSection(account.topup),
  )
}

const STATUS_TEXT: Record<string, string> = {
  pending: 'Waiting for the payment provider to confirm the payment…',
  completed: 'Payment received. Your balance has been credited.',
  failed: 'The payment did not go through; nothing was charged to your balance.',
}

export async function topupReturnPage(view: HTMLElement, _: Record<string, string>, query: Query) {
  view.append(h('h1', { tabindex: -1 }, 'Top-up'))
  const id = query.get('topup') ?? ''
  const status = h('p', { role: 'status', class: 'status-line' })
  const balance = h('dl', { class: 'stats' })
  view.append(
    status,
    balance,
    h(
      'p',
      { class: 'actions' },
      h('a', { class: 'button secondary', href: `/console/transactions/${encodeURIComponent(id)}` }, 'View the transaction'),
      h('a', { class: 'button secondary', href: '/console' }, 'Back to the overview'),
    ),
  )
  // The webhook usually lands within a second or two; poll the entry for up to two minutes.
  for (let i = 0; i < 120 && view.isConnected; i++) {
    let t: Txn
    try {
      t = await api<Txn>(`/api/wallet/transactions/${encodeURIComponent(id)}`)
    } catch (e) {
      status.textContent = e instanceof ApiError && e.status === 404 ? 'No such top-up.' : String((e as Error).message)
      return
    }
    status.replaceChildren(
      badge(t.status),
      ' ',
      `${usd(t.amount)}: `,
      query.get('status') === 'cancelled' && t.status === 'pending' ? 'You cancelled the payment.' : (STATUS_TEXT[t.status] ?? ''),
    )
    const account = await api<Account>('/api/wallet/account')
    balance.replaceChildren(stat('Balance', usd(account.balance), 'balance'), stat('Available', usd(account.available)))
    if (t.status !== 'pending' || query.get('status') === 'cancelled') return
    await new Promise((r) => setTimeout(r, 1000))
  }
}
