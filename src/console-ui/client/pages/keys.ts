// API keys: create (name, spend limit, rpm, expiry) → the secret once with a copy button and the
// first-run hint; the list with revoke (confirmed in place).
import { api, ApiError, type Page } from '../api.ts'
import { h } from '../dom.ts'
import { busy, field, formError, showError, validate } from '../forms.ts'
import { usd, when } from '../format.ts'
import type { Query } from '../router.ts'
import type { Key } from '../types.ts'
import { badge, copyButton, table, type Column } from '../ui.ts'
import { firstRunHint } from './hint.ts'

/** A date input's day as the end of that day, UTC. */
const endOfDay = (date: string) => (date ? `${date}T23:59:59Z` : null)
const num = (v: string) => (v.trim() === '' ? null : Number(v))

function createForm(onCreated: (k: Key & { key: string }) => void) {
  const name = field({ name: 'name', label: 'Name', maxlength: 100, placeholder: 'e.g. production', autocomplete: 'off' })
  const limit = field({
    name: 'limit',
    label: 'Spend limit (USD)',
    type: 'number',
    min: 0,
    max: 1000000,
    step: 0.01,
    inputmode: 'decimal',
    hint: 'Optional. Lifetime spend through this key.',
  })
  const rpm = field({
    name: 'rpm',
    label: 'Requests per minute',
    type: 'number',
    min: 1,
    step: 1,
    inputmode: 'numeric',
    hint: 'Optional. Defaults to the server quota.',
  })
  const expires = field({
    name: 'expiresAt',
    label: 'Expires on',
    type: 'date',
    min: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
    hint: 'Optional. The key stops working after this day (UTC).',
  })
  const fields = [name, limit, rpm, expires]
  const error = formError()
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create key')
  const form = h(
    'form',
    { class: 'card', novalidate: true, 'aria-labelledby': 'new-key' },
    h('h2', { id: 'new-key' }, 'New API key'),
    h(
      'div',
      { class: 'grid' },
      fields.map((f) => f.wrap),
    ),
    h('div', { class: 'actions' }, submit),
    error,
  )
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    if (!validate(fields, error)) return
    void busy(submit, async () => {
      try {
        const body = {
          name: name.input.value.trim() || undefined,
          limit: num(limit.input.value),
          rpm: num(rpm.input.value),
          expiresAt: endOfDay(expires.input.value),
        }
        onCreated(await api('/api/keys', { method: 'POST', body }))
        form.reset()
      } catch (err) {
        showError(err, fields, error)
      }
    })()
  })
  return form
}

async function createdPanel(k: Key & { key: string }) {
  const secret = h('input', {
    id: 'new-secret',
    class: 'secret',
    readonly: true,
    value: k.key,
    'aria-describedby': 'secret-note',
    spellcheck: 'false',
  })
  secret.addEventListener('focus', () => secret.select())
  return h(
    'div',
    { class: 'created' },
    h(
      'section',
      { class: 'card success', 'aria-labelledby': 'secret-title' },
      h('h2', { id: 'secret-title' }, `Key “${k.name || 'unnamed'}” created`),
      h('label', { for: 'new-secret' }, 'Secret key'),
      h(
        'div',
        { class: 'secret-row' },
        secret,
        copyButton(() => k.key),
      ),
      h('p', { id: 'secret-note', class: 'warn' }, 'Copy it now: this is the only time it is shown.'),
    ),
    await firstRunHint(k.key),
  )
}

function revokeCell(k: Key, redraw: () => Promise<void>) {
  if (k.status !== 'active') return '—'
  const cell = h('span', { class: 'revoke' })
  const error = h('span', { class: 'field-error', role: 'alert' })
  const ask = h('button', { type: 'button', class: 'danger-link' }, 'Revoke', h('span', { class: 'sr-only' }, ` ${k.name || k.prefix}`))
  ask.addEventListener('click', () => {
    const yes = h('button', { type: 'button', class: 'danger' }, `Confirm revoke ${k.name || k.prefix}`)
    const no = h('button', { type: 'button', class: 'secondary' }, 'Cancel')
    yes.addEventListener('click', async () => {
      yes.disabled = true
      try {
        await api(`/api/keys/${encodeURIComponent(k.id)}`, { method: 'DELETE' })
        await redraw()
      } catch (e) {
        error.textContent = e instanceof ApiError ? e.message : String(e)
        yes.disabled = false
      }
    })
    no.addEventListener('click', () => (cell.replaceChildren(ask, error), ask.focus()))
    cell.replaceChildren(yes, no, error)
    yes.focus()
  })
  cell.append(ask, error)
  return cell
}

export async function keysPage(view: HTMLElement, _: Record<string, string>, query: Query) {
  view.append(h('h1', { tabindex: -1 }, 'API keys'))
  if (query.get('welcome'))
    view.append(
      h('p', { class: 'card hint' }, 'Welcome! Create your first API key below, then top up your balance to start calling models.'),
    )
  const created = h('div', { 'aria-live': 'polite' })
  const list = h('section', { 'aria-labelledby': 'your-keys' })
  const redraw = async () => {
    const keys = await api<Page<Key>>('/api/keys?limit=100')
    const columns: Column<Key>[] = [
      { label: 'Name', cell: (k) => k.name || 'unnamed' },
      { label: 'Key', cell: (k) => h('code', null, `${k.prefix}…`) },
      { label: 'Status', cell: (k) => badge(k.status) },
      { label: 'Spent', cell: (k) => `${usd(k.spent)}${k.limit !== null ? ` of ${usd(k.limit)}` : ''}`, num: true },
      { label: 'RPM', cell: (k) => String(k.rpm), num: true },
      { label: 'Expires', cell: (k) => when(k.expiresAt) },
      { label: 'Last used', cell: (k) => when(k.lastUsedAt) },
      { label: 'Actions', cell: (k) => revokeCell(k, redraw) },
    ]
    list.replaceChildren(
      h('h2', { id: 'your-keys' }, 'Your keys'),
      keys.items.length ? table('Your API keys', columns, keys.items).wrap : h('p', { class: 'empty' }, 'No keys yet.'),
    )
  }
  view.append(
    createForm(async (k) => {
      created.replaceChildren(await createdPanel(k))
      ;(created.querySelector('#new-secret') as HTMLInputElement | null)?.focus()
      await redraw()
    }),
    created,
    list,
  )
  await redraw()
}
