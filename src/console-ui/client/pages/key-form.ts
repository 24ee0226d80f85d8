// The key form, for a new key (POST) and for changing one (PATCH): name, spend limit and the
// period it resets on, rpm, tpm, calls in flight, the model and network allowlists (comma or
// line separated), expiry (docs/api.md "Key settings"). Editing sends every member: an emptied
// field clears its setting.
import { api } from '../api.ts'
import { h } from '../dom.ts'
import { type Field, field, formError, onSubmit } from '../forms.ts'
import type { Key } from '../types.ts'

/** A date input's day as the end of that day, UTC. */
const endOfDay = (date: string) => (date ? `${date}T23:59:59Z` : null)
const num = (v: string) => (v.trim() === '' ? null : Number(v))
const list = (v: string) => {
  const items = v
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean)
  return items.length ? items : null
}
const whole = (name: string, label: string, hint: string) =>
  field({ name, label, type: 'number', min: 1, step: 1, inputmode: 'numeric', hint })

function keyFields(k?: Key) {
  const fields = [
    field({ name: 'name', label: 'Name', maxlength: 100, placeholder: 'e.g. production', autocomplete: 'off' }),
    field({
      name: 'limit',
      label: 'Spend limit (USD)',
      type: 'number',
      min: 0,
      max: 1000000,
      step: 0.01,
      inputmode: 'decimal',
      hint: 'Optional.',
    }),
    field({
      name: 'limitReset',
      label: 'Limit resets',
      options: [
        ['', 'Never (lifetime)'],
        ['daily', 'Daily (UTC)'],
        ['weekly', 'Weekly (Monday, UTC)'],
        ['monthly', 'Monthly (UTC)'],
      ],
    }),
    whole('rpm', 'Requests per minute', 'Optional. Defaults to the server quota.'),
    whole('tpm', 'Tokens per minute', 'Optional. Prompt and output tokens.'),
    whole('maxConcurrent', 'Calls at once', 'Optional. Calls in flight at the same time.'),
    field({
      name: 'models',
      label: 'Allowed models',
      autocomplete: 'off',
      placeholder: 'acme/*, beta/chat-2',
      hint: 'Optional. Slugs, * matches anything.',
    }),
    field({
      name: 'ipAllowlist',
      label: 'Allowed networks',
      autocomplete: 'off',
      placeholder: '203.0.113.0/24, 2001:db8::/32',
      hint: 'Optional. CIDR blocks.',
    }),
    field({
      name: 'expiresAt',
      label: 'Expires on',
      type: 'date',
      min: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
      hint: 'Optional. UTC.',
    }),
  ]
  if (k) prefill(fields, k)
  return fields
}

function prefill(fields: Field[], k: Key) {
  const values: Record<string, string> = {
    name: k.name,
    limit: k.limit === null ? '' : String(k.limit),
    limitReset: k.limitReset ?? '',
    rpm: String(k.rpm),
    tpm: k.tpm === null ? '' : String(k.tpm),
    maxConcurrent: k.maxConcurrent === null ? '' : String(k.maxConcurrent),
    models: (k.models ?? []).join(', '),
    ipAllowlist: (k.ipAllowlist ?? []).join(', '),
    expiresAt: k.expiresAt?.slice(0, 10) ?? '',
  }
  for (const f of fields) f.input.value = values[f.name] ?? ''
}

function bodyOf(fields: Field[], editing: boolean) {
  const v = Object.fromEntries(fields.map((f) => [f.name, f.input.value]))
  return {
    name: v.name!.trim() || (editing ? '' : undefined),
    limit: num(v.limit!),
    limitReset: v.limitReset || null,
    // A new key without an rpm gets the quota; a change keeps the one shown.
    rpm: num(v.rpm!),
    tpm: num(v.tpm!),
    maxConcurrent: num(v.maxConcurrent!),
    models: list(v.models!),
    ipAllowlist: list(v.ipAllowlist!),
    expiresAt: endOfDay(v.expiresAt!),
  }
}

/** The form; `k` given → it edits that key. `done` receives the API's answer. */
export function keyForm<T>(done: (answer: T) => void | Promise<void>, k?: Key) {
  const fields = keyFields(k)
  const error = formError()
  const title = k ? `Edit key ${k.name || k.prefix}` : 'New API key'
  const titleId = k ? `edit-${k.id}` : 'new-key'
  const submit = h('button', { type: 'submit', class: 'primary' }, k ? 'Save changes' : 'Create key')
  const form = h(
    'form',
    { class: 'card', novalidate: true, 'aria-labelledby': titleId },
    h('h2', { id: titleId }, title),
    h(
      'div',
      { class: 'grid' },
      fields.map((f) => f.wrap),
    ),
    h('div', { class: 'actions' }, submit),
    error,
  )
  onSubmit(form, fields, submit, error, async () => {
    const path = k ? `/api/keys/${encodeURIComponent(k.id)}` : '/api/keys'
    await done(await api<T>(path, { method: k ? 'PATCH' : 'POST', body: bodyOf(fields, Boolean(k)) }))
    if (!k) form.reset()
  })
  return form
}
