// Sign in and sign up: one form each; the session cookie comes back from the API. When the server
// requires a confirmed email, sign-up answers 202 without a session: the page says where the
// link went (docs/console.md "Email verification").
import { api, ApiError } from '../api.ts'
import { h } from '../dom.ts'
import { field, formError, onSubmit, showError } from '../forms.ts'
import type { Query } from '../router.ts'
import { navigate } from '../router.ts'
import { setUser, type Me } from '../session.ts'
import { linkSent } from './recovery.ts'

type Registered = Me & { verification?: 'email' | 'operator' }

function authForm(view: HTMLElement, query: Query, mode: 'signin' | 'signup') {
  const signup = mode === 'signup'
  const email = field({ name: 'email', label: 'Email', type: 'email', required: true, autocomplete: 'email', maxlength: 254 })
  const password = field({
    name: 'password',
    label: 'Password',
    type: 'password',
    required: true,
    minlength: signup ? 8 : undefined,
    maxlength: 200,
    autocomplete: signup ? 'new-password' : 'current-password',
    hint: signup ? 'At least 8 characters.' : undefined,
  })
  const fields = [email, password]
  const error = formError()
  const submit = h('button', { type: 'submit', class: 'primary' }, signup ? 'Create account' : 'Sign in')
  const next = query.get('next')?.startsWith('/console') ? query.get('next')! : '/console'
  const form = h(
    'form',
    { class: 'card narrow', novalidate: true, 'aria-labelledby': 'auth-title' },
    ...fields.map((f) => f.wrap),
    h('div', { class: 'actions' }, submit),
    error,
  )
  onSubmit(
    form,
    fields,
    submit,
    error,
    async () => {
      const me = await api<Registered>(`/api/auth/${signup ? 'register' : 'login'}`, {
        method: 'POST',
        body: { email: email.input.value, password: password.input.value },
      })
      if (me.verification)
        return void form.replaceWith(
          linkSent(me.verification, 'confirm your email', `We sent a link to ${me.email} to confirm your email.`),
        )
      setUser(me)
      navigate(signup ? '/console/keys?welcome=1' : next, { replace: true })
    },
    (err: unknown) => {
      // A taken email is about the email field; a failed login is about the pair.
      if (err instanceof ApiError && err.code === 'CONFLICT')
        showError(null, fields, error), email.setError(err.message), email.input.focus()
      else showError(err, fields, error)
    },
  )
  const other = signup
    ? h('p', null, 'Already have an account? ', h('a', { href: `/console/signin${location.search}` }, 'Sign in'))
    : [
        h('p', null, h('a', { href: '/console/forgot' }, 'Forgot password?')),
        h('p', null, 'New here? ', h('a', { href: `/console/signup${location.search}` }, 'Create an account')),
      ]
  view.append(h('h1', { id: 'auth-title', tabindex: -1 }, signup ? 'Create your account' : 'Sign in to Tollgate'), form, ...[other].flat())
}

export const signInPage = (view: HTMLElement, _: Record<string, string>, query: Query) => authForm(view, query, 'signin')
export const signUpPage = (view: HTMLElement, _: Record<string, string>, query: Query) => authForm(view, query, 'signup')
