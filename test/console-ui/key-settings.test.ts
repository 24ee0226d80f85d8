// Key settings and auto top-up in a real browser (docs/console-ui.md): the key form creates a key
// with every setting and shows a refused pattern under its field; the list shows the settings;
// Edit changes one in place; the top-up page saves auto top-up. Checked through the API too.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { markLow } from '../../src/billing/auto-topup.ts'
import { ADMIN_TOKEN, ALL_BACKENDS } from '../helpers/gateway.ts'
import { apiGet, fieldError, nav, signUpInPage, startConsoleUi, type ConsoleUi } from './suite.ts'

// One backend: the pages are the same on every one (the API is tested on both).
const backends = ALL_BACKENDS.at(-1)!

/** The note under a limit the operator set (src/console-ui/client/pages/key-form.ts). */
const OPERATOR_HINT = 'Set by the operator: you may tighten it, not lift or loosen it.'

describe(`console UI key settings on ${backends.db}+${backends.store}`, () => {
  let ui: ConsoleUi
  beforeAll(async () => {
    ui = await startConsoleUi(backends)
  }, 120_000)
  afterAll(() => ui?.stop(), 60_000)

  test('create a key with every setting, a refused pattern shown under its field, edit one in place', async () => {
    const { page } = ui.b
    await signUpInPage(page)
    const form = page.getByRole('form', { name: 'New API key' })
    await form.getByLabel('Name').fill('team')
    await form.getByLabel('Spend limit (USD)').fill('5')
    await form.getByLabel('Limit resets').selectOption('daily')
    await form.getByLabel('Tokens per minute').fill('1000')
    await form.getByLabel('Calls at once').fill('2')
    await form.getByLabel('Allowed networks').fill('203.0.113.0/24, 2001:db8::/32')
    await form.getByLabel('Allowed models').fill('acme/*, nobody/*')
    await form.getByRole('button', { name: 'Create key' }).click()
    await fieldError(page, 'Allowed models').getByText("'nobody/*' matches no model of the catalog.").waitFor()
    await form.getByLabel('Allowed models').fill('acme/*')
    await form.getByRole('button', { name: 'Create key' }).click()
    await page.getByRole('heading', { name: 'Key “team” created' }).waitFor()
    await page.getByRole('cell', { name: /1000 tokens\/min; 2 at once; limit resets daily/ }).waitFor()
    const [created] = (await apiGet(page, '/api/keys')).items
    expect(created).toMatchObject({
      name: 'team',
      limit: 5,
      limitReset: 'daily',
      tpm: 1000,
      maxConcurrent: 2,
      models: ['acme/*'],
      ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'],
    })

    await page.getByRole('button', { name: 'Edit team' }).click()
    const edit = page.getByRole('form', { name: 'Edit key team' })
    expect(await edit.getByLabel('Tokens per minute').inputValue()).toBe('1000')
    await edit.getByLabel('Tokens per minute').fill('')
    await edit.getByLabel('Calls at once').fill('3')
    await edit.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('cell', { name: /3 at once; limit resets daily/ }).waitFor()
    const [changed] = (await apiGet(page, '/api/keys')).items
    expect(changed).toMatchObject({ tpm: null, maxConcurrent: 3, models: ['acme/*'], limit: 5 })
  })

  test('a key the operator limited: its form says so under those limits; a save of other members works; lifting one is refused under its field', async () => {
    const { page } = ui.b
    const me = await signUpInPage(page)
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) + 'T12:00:00.000Z'
    const made = await ui.gw.request('/api/admin/keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: me.id, name: 'ops', limit: 5, maxConcurrent: 2, expiresAt }),
    })
    expect(made.status).toBe(200)
    await page.goto('/console/keys')
    await page.getByRole('button', { name: 'Edit ops' }).click()
    const edit = page.getByRole('form', { name: 'Edit key ops' })
    for (const label of ['Spend limit (USD)', 'Calls at once', 'Expires on'])
      await edit
        .locator('.field', { has: page.getByLabel(label, { exact: true }) })
        .getByText(OPERATOR_HINT)
        .waitFor()
    expect(
      await edit
        .locator('.field', { has: page.getByLabel('Tokens per minute', { exact: true }) })
        .getByText(OPERATOR_HINT)
        .count(),
    ).toBe(0)
    // Only what changed is sent: the operator's expiry, shown as a day, is not pushed to its end.
    await edit.getByLabel('Tokens per minute').fill('500')
    await edit.getByLabel('Calls at once').fill('1')
    await edit.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('cell', { name: /500 tokens\/min; 1 at once/ }).waitFor()
    const [tightened] = (await apiGet(page, '/api/keys')).items
    expect(tightened).toMatchObject({ tpm: 500, maxConcurrent: 1, limit: 5, expiresAt })
    await page.getByRole('button', { name: 'Edit ops' }).click()
    const again = page.getByRole('form', { name: 'Edit key ops' })
    await again.getByLabel('Spend limit (USD)').fill('')
    await again.getByRole('button', { name: 'Save changes' }).click()
    await fieldError(page, 'Spend limit (USD)').getByText('Set by the operator; you may lower it, not lift or loosen it.').waitFor()
    expect((await apiGet(page, '/api/keys')).items[0]).toMatchObject({ limit: 5 })
  })

  test('the top-up page saves auto top-up; the overview shows the low-balance notice', async () => {
    const { page } = ui.b
    const me = await signUpInPage(page)
    await nav(page, 'Top up', 'Top up')
    const form = page.getByRole('form', { name: 'Auto top-up' })
    // A box to tick at its own size beside its label, not a text field's width and height.
    const box = (await form.getByLabel('Top up automatically').boundingBox())!
    expect(box.width).toBeLessThan(32)
    expect(box.height).toBeLessThan(32)
    await form.getByLabel('Top up automatically').check()
    await form.getByLabel('When the balance falls under (USD)').fill('2')
    await form.getByLabel('Add (USD)').fill('10')
    await form.getByLabel('Pay with').selectOption('sandbox')
    await form.getByRole('button', { name: 'Save auto top-up' }).click()
    await page.getByText('Auto top-up saved.').waitFor()
    expect(await apiGet(page, '/api/wallet/auto-topup')).toMatchObject({
      enabled: true,
      threshold: 2,
      amount: 10,
      provider: 'sandbox',
      paymentMethodSaved: true,
    })
    // A settlement crossed under the threshold (billing/auto-topup.ts marks it).
    expect(await markLow(ui.gw.runtime.deps.db, me.id)).toBe(true)
    await nav(page, 'Overview', 'Overview')
    await page.getByRole('status').getByText('Low balance: under your threshold of $2.00.').waitFor()
  })
})
