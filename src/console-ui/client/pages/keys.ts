// API keys: create (key-form.ts: every setting) → the secret once with a copy button and the
// first-run hint; the list with every setting, edit in place and revoke (confirmed in place).
import { api, ApiError, type Page } from '../api.ts'
import { h } from '../dom.ts'
import { usd, when } from '../format.ts'
import type { Query } from '../router.ts'
import type { Key } from '../types.ts'
import { badge, copyButton, table, type Column } from '../ui.ts'
import { firstRunHint } from './hint.ts'
import { keyForm } from './key-form.ts'

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

/** What limits a key beyond its spend: models, networks, tokens, calls at once, the limit's period. */
function limitsOf(k: Key): string {
  const parts = [
    k.models && `models ${k.models.join(', ')}`,
    k.ipAllowlist && `from ${k.ipAllowlist.join(', ')}`,
    k.tpm !== null && `${k.tpm} tokens/min`,
    k.maxConcurrent !== null && `${k.maxConcurrent} at once`,
    k.limitReset && `limit resets ${k.limitReset}${k.resetsAt ? ` (next ${when(k.resetsAt)})` : ''}`,
  ].filter(Boolean)
  return parts.length ? parts.join('; ') : '—'
}

function editButton(k: Key, slot: HTMLElement, redraw: () => Promise<void>) {
  const edit = h('button', { type: 'button', class: 'secondary' }, 'Edit', h('span', { class: 'sr-only' }, ` ${k.name || k.prefix}`))
  edit.addEventListener('click', () => {
    slot.replaceChildren(keyForm(async () => (slot.replaceChildren(), await redraw()), k))
    ;(slot.querySelector('input') as HTMLInputElement | null)?.focus()
  })
  return edit
}

function revokeCell(k: Key, redraw: () => Promise<void>, editing: HTMLElement) {
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
  cell.append(editButton(k, editing, redraw), ' ', ask, error)
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
  const editing = h('div', { 'aria-live': 'polite' })
  const redraw = async () => {
    const keys = await api<Page<Key>>('/api/keys?limit=100')
    const columns: Column<Key>[] = [
      { label: 'Name', cell: (k) => k.name || 'unnamed' },
      { label: 'Key', cell: (k) => h('code', null, `${k.prefix}…`) },
      { label: 'Status', cell: (k) => badge(k.status) },
      { label: 'Spent', cell: (k) => `${usd(k.spent)}${k.limit !== null ? ` of ${usd(k.limit)}` : ''}`, num: true },
      { label: 'RPM', cell: (k) => String(k.rpm), num: true },
      { label: 'Limits', cell: limitsOf },
      { label: 'Expires', cell: (k) => when(k.expiresAt) },
      { label: 'Last used', cell: (k) => when(k.lastUsedAt) },
      { label: 'Actions', cell: (k) => revokeCell(k, redraw, editing) },
    ]
    list.replaceChildren(
      h('h2', { id: 'your-keys' }, 'Your keys'),
      keys.items.length ? table('Your API keys', columns, keys.items).wrap : h('p', { class: 'empty' }, 'No keys yet.'),
    )
  }
  view.append(
    keyForm<Key & { key: string }>(async (k) => {
      created.replaceChildren(await createdPanel(k))
      ;(created.querySelector('#new-secret') as HTMLInputElement | null)?.focus()
      await redraw()
    }),
    created,
    editing,
    list,
  )
  await redraw()
}
