// A list page's filter bar in Chromium: values start from the URL query and are written back to
// it; a change redraws the results; typing waits for a pause; an older, slower answer never
// replaces a newer one; a failing draw is said in the results.
import { beforeAll, expect, test } from 'bun:test'
import { clientPage } from '../client-page.ts'

type Filters = typeof import('../../../src/console-ui/client/filters.ts')
type Forms = typeof import('../../../src/console-ui/client/forms.ts')
const cp = clientPage({ filters: 'filters.ts', forms: 'forms.ts' })
beforeAll(() => cp.open('/console/logs?model=gpt&status=error'), 60_000)

test('starts from the query, writes the set values back, and shows what the results gave', async () => {
  const r = await cp.page.evaluate(async () => {
    const { filterBar } = window.__client.filters as Filters
    const { field } = window.__client.forms as Forms
    const model = field({ name: 'model', label: 'Model' })
    const status = field({
      name: 'status',
      label: 'Status',
      options: [
        ['', 'Any'],
        ['error', 'Failed'],
      ],
    })
    const seen: Record<string, string>[] = []
    const bar = filterBar(
      'Filter',
      [model, status],
      new URLSearchParams(location.search),
      async (v) => (seen.push(v), `${v.model}|${v.status}`),
    )
    document.body.append(bar.form, bar.out)
    await bar.draw()
    const first = { values: seen.at(-1), out: bar.out.textContent, url: location.search, busy: bar.out.getAttribute('aria-busy') }
    ;(model.input as HTMLInputElement).value = '  '
    status.input.dispatchEvent(new Event('change', { bubbles: true }))
    await new Promise((res) => setTimeout(res, 50))
    return { first, second: { values: seen.at(-1), url: location.search }, role: bar.form.getAttribute('role') }
  })
  expect(r.first).toEqual({ values: { model: 'gpt', status: 'error' }, out: 'gpt|error', url: '?model=gpt&status=error', busy: 'false' })
  expect(r.second).toEqual({ values: { model: '', status: 'error' }, url: '?status=error' })
  expect(r.role).toBe('search')
})

test('typing redraws once, after a pause', async () => {
  const r = await cp.page.evaluate(async () => {
    const { filterBar } = window.__client.filters as Filters
    const { field } = window.__client.forms as Forms
    const q = field({ name: 'q', label: 'Search' })
    let draws = 0
    const bar = filterBar('Filter', [q], new URLSearchParams(), async () => (draws++, 'x'))
    document.body.append(bar.form)
    for (const text of ['a', 'ab', 'abc']) {
      ;(q.input as HTMLInputElement).value = text
      q.input.dispatchEvent(new Event('input', { bubbles: true }))
    }
    const right = draws
    await new Promise((res) => setTimeout(res, 500))
    return { right, later: draws }
  })
  expect(r).toEqual({ right: 0, later: 1 })
})

test('a slower earlier answer never replaces a newer one; an error is shown as an alert', async () => {
  const r = await cp.page.evaluate(async () => {
    const { filterBar } = window.__client.filters as Filters
    const { field } = window.__client.forms as Forms
    const q = field({ name: 'q', label: 'Search' })
    const bar = filterBar('Filter', [q], new URLSearchParams(), async (v) => {
      if (v.q === 'slow') await new Promise((res) => setTimeout(res, 200))
      if (v.q === 'bad') throw new Error('The server answered 500.')
      return `result for ${v.q}`
    })
    ;(q.input as HTMLInputElement).value = 'slow'
    const slow = bar.draw()
    ;(q.input as HTMLInputElement).value = 'fast'
    await bar.draw()
    await slow
    const kept = bar.out.textContent
    ;(q.input as HTMLInputElement).value = 'bad'
    await bar.draw()
    return { kept, error: bar.out.querySelector('[role=alert]')?.textContent }
  })
  expect(r).toEqual({ kept: 'result for fast', error: 'The server answered 500.' })
})

test('no page errors', () => expect(cp.errors).toEqual([]))
