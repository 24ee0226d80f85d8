// Form controls with their label, hint and error in one place: an error is shown in words right
// under the control that caused it (aria-invalid + aria-describedby), anything else next to the
// form's submit button. The API names the field first in its messages ("amount must be…",
// "email: …"), which is how an API error finds its control.
import { ApiError } from './api.ts'
import { h, uid, type Attrs } from './dom.ts'

export interface Field {
  name: string
  wrap: HTMLElement
  input: HTMLInputElement | HTMLSelectElement
  setError(message: string | null): void
}

type FieldOpts = { name: string; label: string; hint?: string; options?: [string, string][] } & Attrs

export function field({ name, label, hint, options, ...attrs }: FieldOpts): Field {
  const id = uid(name)
  const error = h('p', { class: 'field-error', id: `${id}-error`, hidden: true })
  const hintEl = hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null
  const input = options
    ? h('select', { id, name, ...attrs }, ...options.map(([value, text]) => h('option', { value }, text)))
    : h('input', { id, name, type: 'text', ...attrs })
  input.setAttribute('aria-describedby', [hintEl && `${id}-hint`, `${id}-error`].filter(Boolean).join(' '))
  const wrap = h('div', { class: 'field' }, h('label', { for: id }, label), input, hintEl, error)
  const f: Field = {
    name,
    wrap,
    input,
    setError(message) {
      error.textContent = message ?? ''
      error.hidden = !message
      if (message) input.setAttribute('aria-invalid', 'true')
      else input.removeAttribute('aria-invalid')
    },
  }
  // An error is about the value that caused it: editing the value clears it.
  input.addEventListener('input', () => f.setError(null))
  return f
}

/** The form-level message slot (role=alert so it is announced). */
export const formError = () => h('p', { class: 'form-error', role: 'alert' })

/** Clears every error, then shows `err` under its field when the message names one. */
export function showError(err: unknown, fields: Field[], slot: HTMLElement) {
  for (const f of fields) f.setError(null)
  slot.textContent = ''
  if (!err) return
  const message = err instanceof Error ? err.message : String(err)
  const named = err instanceof ApiError ? /^([A-Za-z]+)(?:[.:\s[])/.exec(message)?.[1] : undefined
  const target = fields.find((f) => f.name === named)
  if (target) {
    target.setError(message.replace(/^[A-Za-z]+(\[\d+\])?:\s*/, '').replace(/^./, (c) => c.toUpperCase()))
    target.input.focus()
  } else slot.textContent = message
}

/** Runs `submit` with the button disabled while it is in flight. */
export function busy(button: HTMLButtonElement, submit: () => Promise<void>) {
  return async () => {
    button.disabled = true
    button.setAttribute('aria-busy', 'true')
    try {
      await submit()
    } finally {
      button.disabled = false
      button.removeAttribute('aria-busy')
    }
  }
}

/** The browser's own constraint check (required, min, max, step…), shown our way; true if valid. */
export function validate(fields: Field[], slot: HTMLElement): boolean {
  showError(null, fields, slot)
  const bad = fields.filter((f) => !f.input.checkValidity())
  for (const f of bad) f.setError(f.input.validationMessage)
  bad[0]?.input.focus()
  return bad.length === 0
}

/**
 * A form's submission, the same on every page: the browser's own checks first (shown under the
 * fields), then `send` with the button busy; a failure shown by `fail` — by default under the
 * field its message names, else in the form's slot.
 */
export function onSubmit(
  form: HTMLFormElement,
  fields: Field[],
  button: HTMLButtonElement,
  slot: HTMLElement,
  send: () => Promise<void>,
  fail: (err: unknown) => void = (err) => showError(err, fields, slot),
): void {
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    if (!validate(fields, slot)) return
    void busy(button, async () => {
      try {
        await send()
      } catch (err) {
        fail(err)
      }
    })()
  })
}
