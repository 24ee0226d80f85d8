// Form controls in Chromium: a labelled field with its hint and error wired by aria; an API error
// shown under the field its message names (else in the form's slot); the browser's own checks
// shown the same way; the submit button busy while the request is in flight.
import { beforeAll, expect, test } from 'bun:test'
import { clientPage } from '../client-page.ts'

type Forms = typeof import('../../../src/console-ui/client/forms.ts')
type Api = typeof import('../../../src/console-ui/client/api.ts')
const cp = clientPage({ forms: 'forms.ts', api: 'api.ts' })
beforeAll(() => cp.open(), 60_000)

test('a field: label for the input, hint and error described, error cleared by editing', async () => {
  const r = await cp.page.evaluate(() => {
    const { field } = window.__client.forms as Forms
    const f = field({ name: 'amount', label: 'Amount (USD)', hint: 'At least 5.', type: 'number' })
    document.body.append(f.wrap)
    const input = f.input as HTMLInputElement
    const label = f.wrap.querySelector('label')!
    const described = input.getAttribute('aria-describedby')!.split(' ')
    f.setError('Too small.')
    const withError = {
      invalid: input.getAttribute('aria-invalid'),
      text: document.getElementById(described[1]!)!.textContent,
      hidden: document.getElementById(described[1]!)!.hidden,
    }
    input.value = '7'
    input.dispatchEvent(new Event('input'))
    return {
      labelFor: label.htmlFor === input.id,
      type: input.type,
      hint: document.getElementById(described[0]!)!.textContent,
      withError,
      after: { invalid: input.getAttribute('aria-invalid'), hidden: document.getElementById(described[1]!)!.hidden },
    }
  })
  expect(r).toEqual({
    labelFor: true,
    type: 'number',
    hint: 'At least 5.',
    withError: { invalid: 'true', text: 'Too small.', hidden: false },
    after: { invalid: null, hidden: true },
  })
})

test('a select field lists its options', async () => {
  const opts = await cp.page.evaluate(() => {
    const { field } = window.__client.forms as Forms
    const f = field({
      name: 'period',
      label: 'Period',
      options: [
        ['', 'Lifetime'],
        ['monthly', 'Monthly'],
      ],
    })
    return [...(f.input as HTMLSelectElement).options].map((o) => [o.value, o.text])
  })
  expect(opts).toEqual([
    ['', 'Lifetime'],
    ['monthly', 'Monthly'],
  ])
})

test('an API error naming a field goes under it, capitalised and focused; any other goes to the slot', async () => {
  const r = await cp.page.evaluate(() => {
    const { field, showError, formError } = window.__client.forms as Forms
    const { ApiError } = window.__client.api as Api
    const email = field({ name: 'email', label: 'Email' })
    const password = field({ name: 'password', label: 'Password' })
    const slot = formError()
    document.body.append(email.wrap, password.wrap, slot)
    showError(new ApiError(422, 'VALIDATION_FAILED', 'email: must be an address'), [email, password], slot)
    const named = {
      error: email.wrap.querySelector('.field-error')!.textContent,
      focused: document.activeElement === email.input,
      slot: slot.textContent,
    }
    showError(new ApiError(401, 'UNAUTHORIZED', 'Wrong email or password.'), [email, password], slot)
    const other = { error: email.wrap.querySelector('.field-error')!.textContent, slot: slot.textContent }
    showError(new Error('amount: plain errors are not matched'), [email, password], slot)
    const plain = slot.textContent
    showError(null, [email, password], slot)
    return { named, other, plain, cleared: slot.textContent }
  })
  expect(r).toEqual({
    named: { error: 'Must be an address', focused: true, slot: '' },
    other: { error: '', slot: 'Wrong email or password.' },
    plain: 'amount: plain errors are not matched',
    cleared: '',
  })
})

test('submit: the browser’s checks first (nothing sent), then the button busy while sending, an error shown', async () => {
  const r = await cp.page.evaluate(async () => {
    const { field, formError, onSubmit } = window.__client.forms as Forms
    const { ApiError } = window.__client.api as Api
    const amount = field({ name: 'amount', label: 'Amount', type: 'number', min: 5, required: true })
    const button = document.createElement('button')
    const slot = formError()
    const form = document.createElement('form')
    form.noValidate = true // as the console's forms are: the checks are shown our way
    form.append(amount.wrap, button, slot)
    document.body.append(form)
    const sent: string[] = []
    let release = () => {}
    onSubmit(form, [amount], button, slot, async () => {
      sent.push(amount.input.value)
      await new Promise<void>((res) => (release = res))
      throw new ApiError(422, 'VALIDATION_FAILED', 'amount: must be at most 500')
    })
    ;(amount.input as HTMLInputElement).value = '2'
    form.requestSubmit()
    const refused = { sent: sent.length, invalid: amount.input.getAttribute('aria-invalid') }
    ;(amount.input as HTMLInputElement).value = '900'
    form.requestSubmit()
    await new Promise((res) => setTimeout(res, 20))
    const during = { disabled: button.disabled, busy: button.getAttribute('aria-busy') }
    release()
    await new Promise((res) => setTimeout(res, 20))
    return {
      refused,
      during,
      after: {
        disabled: button.disabled,
        busy: button.getAttribute('aria-busy'),
        error: amount.wrap.querySelector('.field-error')!.textContent,
      },
      sent,
    }
  })
  expect(r.refused).toEqual({ sent: 0, invalid: 'true' })
  expect(r.during).toEqual({ disabled: true, busy: 'true' })
  expect(r.after).toEqual({ disabled: false, busy: null, error: 'Must be at most 500' })
  expect(r.sent).toEqual(['900'])
})

test('no page errors', () => expect(cp.errors).toEqual([]))
