// An operator action button in Chromium: busy while the call runs, the page redrawn after it,
// an API refusal said next to it and nothing redrawn.
import { beforeAll, expect, test } from 'bun:test'
import { clientPage } from '../../../client-page.ts'

type Action = typeof import('../../../../../src/console-ui/client/pages/admin/action.ts')
type Api = typeof import('../../../../../src/console-ui/client/api.ts')
const cp = clientPage({ action: 'pages/admin/action.ts', api: 'api.ts' })
beforeAll(() => cp.open('/console/admin'), 60_000)

test('success: busy during the call, slot cleared, page refreshed', async () => {
  const r = await cp.page.evaluate(async () => {
    const { actionButton } = window.__client.action as Action
    const slot = document.createElement('p')
    slot.textContent = 'an old message'
    let refreshed = 0
    let release = () => {}
    const b = actionButton(
      'Disable',
      'danger',
      () => new Promise<void>((res) => (release = res)),
      async () => void refreshed++,
      slot,
    )
    document.body.append(b, slot)
    b.click()
    await new Promise((res) => setTimeout(res, 10))
    const during = { disabled: b.disabled, refreshed }
    release()
    await new Promise((res) => setTimeout(res, 10))
    return { cls: b.className, text: b.textContent, during, after: { disabled: b.disabled, refreshed, slot: slot.textContent } }
  })
  expect(r).toEqual({
    cls: 'danger',
    text: 'Disable',
    during: { disabled: true, refreshed: 0 },
    after: { disabled: false, refreshed: 1, slot: '' },
  })
})

test('a refusal is said in the slot and nothing is redrawn', async () => {
  const r = await cp.page.evaluate(async () => {
    const { actionButton } = window.__client.action as Action
    const { ApiError } = window.__client.api as Api
    const slot = document.createElement('p')
    let refreshed = 0
    const b = actionButton(
      'Credit',
      'primary',
      async () => {
        throw new ApiError(409, 'CONFLICT', 'The user is disabled.')
      },
      async () => void refreshed++,
      slot,
    )
    b.click()
    await new Promise((res) => setTimeout(res, 10))
    return { slot: slot.textContent, refreshed, disabled: b.disabled }
  })
  expect(r).toEqual({ slot: 'The user is disabled.', refreshed: 0, disabled: false })
})

test('no page errors', () => expect(cp.errors).toEqual([]))
