// The models page in Chromium: filter choices from the whole catalog, a card per model with its
// prices per 1M tokens, a pager that moves pages, and a new search starting at page 1.
import { expect, test } from 'bun:test'
import { clientPage } from '../../client-page.ts'

type Models = typeof import('../../../../src/console-ui/client/pages/models.ts')
const model = (id: string, provider: string, capabilities: string[], cacheRead: number | null = null) => ({
  id,
  name: id.toUpperCase(),
  description: '',
  provider,
  family: '',
  contextWindow: 128_000,
  capabilities,
  pricing: { input: 0.15, output: 0.6, cacheRead, cacheWrite: null },
})
const all = [model('a/one', 'acme', ['text', 'vision'], 0.075), model('b/two', 'beta', ['text'])]
const cp = clientPage(
  { models: 'pages/models.ts' },
  {
    'GET /api/public/models': (_, q) =>
      q.get('pageSize') === '100'
        ? { body: { items: all, total: 2, page: 1, totalPages: 1 } }
        : { body: { items: [all[Number(q.get('page') || 1) - 1]], total: 2, page: Number(q.get('page') || 1), totalPages: 2 } },
  },
)

test('choices, cards, pager', async () => {
  await cp.open('/console/models')
  const r = await cp.page.evaluate(async () => {
    const { modelsPage } = window.__client.models as Models
    const view = document.getElementById('main')!
    await modelsPage(view, {}, new URLSearchParams())
    const opts = (name: string) => [...view.querySelectorAll<HTMLOptionElement>(`select[name=${name}] option`)].map((o) => o.value)
    const cards = () => [...view.querySelectorAll('li.model')].map((li) => li.querySelector('h2')!.textContent)
    const first = {
      providers: opts('provider'),
      capabilities: opts('capability'),
      cards: cards(),
      prices: [...view.querySelectorAll('li.model dl div')].map((d) => d.textContent),
      pager: view.querySelector('.pager span')?.textContent,
      prevDisabled: (view.querySelector('.pager button') as HTMLButtonElement).disabled,
    }
    ;(view.querySelectorAll('.pager button')[1] as HTMLButtonElement).click()
    await new Promise((res) => setTimeout(res, 300))
    return { first, second: { cards: cards(), pager: view.querySelector('.pager span')?.textContent, url: location.search } }
  })
  expect(r.first).toEqual({
    providers: ['', 'acme', 'beta'],
    capabilities: ['', 'text', 'vision'],
    cards: ['A/ONE'],
    prices: ['Input$0.15', 'Output$0.60', 'Cache read$0.075'],
    pager: 'Page 1 of 2',
    prevDisabled: true,
  })
  expect(r.second).toEqual({ cards: ['B/TWO'], pager: 'Page 2 of 2', url: '?sort=popular&page=2' })
  const last = new URLSearchParams(cp.calls.at(-1)!.query)
  expect(last.get('pageSize')).toBe('24')
  expect(last.get('page')).toBe('2')
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
