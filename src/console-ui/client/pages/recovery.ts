// Forgot password, reset password and email confirmation (docs/console.md "Password reset",
// "Email verification"). The emailed links carry their token in the fragment (#token=…), which
// the browser never sends to a server; the page reads it and posts it to the API.
import { api } from '../api.ts'
import { h } from '../dom.ts'
import { field, formError, onSubmit } from '../forms.ts'
import { navigate } from '../router.ts'
import { type Me, setUser } from '../session.ts'

type Delivery = 'email' | 'operator'

const tokenInHash = () => new URLSearchParams(location.hash.slice(1)).get('token') ?? ''

/** What the person does next once a link is on its way: read their mail (`sent` says where), or ask the operator. */
export function linkSent(delivery: Delivery, what: string, sent: string): HTMLElement {
  return h(
    'div',
    { class: 'card narrow success', role: 'status' },
    delivery === 'email'
      ? h('p', null, `${sent} Check your inbox (and spam folder).`)
      : h('p', null, `This server sends no email. Ask its operator for your link to ${what}: they can see it in the server's log.`),
  )
}

export function forgotPage(view: HTMLElement) {
  const email = field({ name: 'email', label: 'Email', type: 'email', required: true, autocomplete: 'email', maxlength: 254 })
  const error = formError()
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Send reset link')
  const form = h(
    'form',
    { class: 'card narrow', novalidate: true, 'aria-labelledby': 'forgot-title' },
    email.wrap,
    h('div', { class: 'actions' }, submit),
    error,
  )
  onSubmit(form, [email], submit, error, async () => {
    const { delivery } = await api<{ delivery: Delivery }>('/api/auth/password/forgot', {
      method: 'POST',
      body: { email: email.input.value },
    })
    const sent = `If ${email.input.value.trim()} has an account, we sent it a link to choose a new password.`
    form.replaceWith(linkSent(delivery, 'choose a new password', sent))
  })
  view.append(
    h('h1', { id: 'forgot-title', tabindex: -1 }, 'Reset your password'),
    h('p', null, 'Enter the email of your account and we will send you a link to choose a new password.'),
    form,
    h('p', null, h('a', { href: '/console/signin' }, 'Back to sign in')),
  )
}

export function resetPage(view: HTMLElement) {
  const token = tokenInHash()
  view.append(h('h1', { id: 'reset-title', tabindex: -1 }, 'Choose a new password'))
  if (!token) return void view.append(badLink())
  const password = field({
    name: 'password',
    label: 'New password',
    type: 'password',
    required: true,
    minlength: 8,
    maxlength: 200,
    autocomplete: 'new-password',
    hint: 'At least 8 characters. You will be signed out everywhere.',
  })
  const error = formError()
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Set new password')
  const form = h(
    'form',
    { class: 'card narrow', novalidate: true, 'aria-labelledby': 'reset-title' },
    password.wrap,
    h('div', { class: 'actions' }, submit),
    error,
  )
  onSubmit(form, [password], submit, error, async () => {
    await api('/api/auth/password/reset', { method: 'POST', body: { token, password: password.input.value } })
    setUser(null)
    form.replaceWith(
      h(
        'div',
        { class: 'card narrow success', role: 'status' },
        h('p', null, 'Your password is changed. '),
        h('a', { href: '/console/signin' }, 'Sign in'),
      ),
    )
  })
  view.append(form)
}

export async function verifyPage(view: HTMLElement) {
  const token = tokenInHash()
  view.append(h('h1', { tabindex: -1 }, 'Confirm your email'))
  if (!token) return void view.append(badLink())
  try {
    setUser(await api<Me>('/api/auth/verify', { method: 'POST', body: { token } }))
    navigate('/console/keys?welcome=1', { replace: true })
  } catch (err) {
    view.append(h('p', { class: 'form-error', role: 'alert' }, err instanceof Error ? err.message : String(err)), badLink())
  }
}

const badLink = () =>
  h(
    'p',
    null,
    'This link is incomplete or no longer works. ',
    h('a', { href: '/console/forgot' }, 'Ask for a new one'),
    ', or sign in to get a new confirmation link.',
  )
