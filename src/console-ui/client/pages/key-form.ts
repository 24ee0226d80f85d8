// The key form, for a new key (POST) and for changing one (PATCH): name, spend limit and the
// period it resets on, rpm, tpm, calls in flight, the model and network allowlists (comma or
// line separated), expiry (docs/api.md "Key settings"). Editing sends the members changed: an
// emptied field clears its setting. A limit the operator set says so under its field: the owner
// may tighten it, not lift or loosen it (docs/console.md "API keys").
import { api } from '../api.ts'
import { h } from '../dom.ts'
import { type Field, field, formError, onSubmit } from '../forms.ts'
import type { Key, OperatorLimit } from '../types.ts'

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

export const OPERATOR_HINT = 'Set by the operator: you may tighten it, not lift or loosen it.'

/** Under each limit the operator set, the operator's note instead of the field's own hint. */
function markOperatorLimits(fields: Field[], k: Key) {
  for (const f of fields) {
    if (k.operatorLimits?.[f.name as OperatorLimit] === undefined) continue
    const hint = f.wrap.querySelector('.hint')
    if (hint) hint.textContent = OPERATOR_HINT
    f.wrap.classList.add('operator-limit')
  }
}

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
  if (k) {
    prefill(fields, k)
    markOperatorLimits(fields, k)
  }
  return fields
}

/** The form's values as shown: an edit sends only the members that differ from them. */
const shown = (fields: Field[]) => Object.fromEntries(fields.map((f) => [f.name, f.input.value]))

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

function bodyOf(fields: Field[], before: Record<string, string> | undefined) {
  const v = shown(fields)
  const editing = before !== undefined
  const body: Record<string, unknown> = {
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
  if (before) for (const f of fields) if (v[f.name] === before[f.name]) delete body[f.name]
  return body
}

/** The form; `k` given → it edits that key. `done` receives the API's answer. */
export function keyForm<T>(done: (answer: T) => void | Promise<void>, k?: Key) {
  const fields = keyFields(k)
  const before = k ? shown(fields) : undefined
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
    await done(await api<T>(path, { method: k ? 'PATCH' : 'POST', body: bodyOf(fields, before) }))
    if (!k) form.reset()
  })
  return form
}
