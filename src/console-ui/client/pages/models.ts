// Models: the public catalog with search, provider and capability filters, sort, pages, and
// prices per 1M tokens.
import { api, qs } from '../api.ts'
import { h } from '../dom.ts'
import { filterBar } from '../filters.ts'
import { contextWindow, perMillion } from '../format.ts'
import { field } from '../forms.ts'
import type { Query } from '../router.ts'
import type { Model } from '../types.ts'

interface CatalogPage {
  items: Model[]
  total: number
  page: number
  totalPages: number
}

const SORTS: [string, string][] = [
  ['popular', 'Most used'],
  ['newest', 'Newest'],
  ['price-asc', 'Price: low to high'],
  ['price-desc', 'Price: high to low'],
  ['context-desc', 'Largest context'],
  ['name-asc', 'Name'],
]

function card(m: Model) {
  const p = m.pricing
  return h(
    'li',
    { class: 'card model' },
    h('h2', null, m.name),
    h('p', null, h('code', null, m.id), ' · ', m.provider, ' · ', contextWindow(m.contextWindow)),
    m.description ? h('p', { class: 'muted' }, m.description) : null,
    h(
      'dl',
      { class: 'prices' },
      h('div', null, h('dt', null, 'Input'), h('dd', null, perMillion(p.input))),
      h('div', null, h('dt', null, 'Output'), h('dd', null, perMillion(p.output))),
      p.cacheRead !== null ? h('div', null, h('dt', null, 'Cache read'), h('dd', null, perMillion(p.cacheRead))) : null,
    ),
    h('p', { class: 'unit' }, 'per 1M tokens'),
    h(
      'ul',
      { class: 'tags', 'aria-label': 'Capabilities' },
      m.capabilities.map((c) => h('li', null, c)),
    ),
  )
}

export async function modelsPage(view: HTMLElement, _: Record<string, string>, query: Query) {
  view.append(h('h1', { tabindex: -1 }, 'Models'))
  // Filter choices come from the whole catalog (one page of up to 100 models).
  const all = await api<CatalogPage>('/api/public/models?pageSize=100&sort=name-asc')
  const uniq = (xs: string[]) => [...new Set(xs)].sort().map((x): [string, string] => [x, x])
  const q = field({ name: 'q', label: 'Search', type: 'search', maxlength: 200, placeholder: 'Name or description', autocomplete: 'off' })
  const provider = field({
    name: 'provider',
    label: 'Provider',
    options: [['', 'All providers'], ...uniq(all.items.map((m) => m.provider))],
  })
  const capability = field({
    name: 'capability',
    label: 'Capability',
    options: [['', 'Any capability'], ...uniq(all.items.flatMap((m) => m.capabilities))],
  })
  const sort = field({ name: 'sort', label: 'Sort by', options: SORTS })
  const page = field({ name: 'page', label: 'Page', type: 'hidden' })
  page.wrap.hidden = true
  const bar = filterBar('Filter models', [q, provider, capability, sort, page], query, async (v) => {
    const res = await api<CatalogPage>(`/api/public/models${qs({ ...v, pageSize: 24 })}`)
    if (res.items.length === 0) return h('p', { class: 'empty' }, 'No models match.')
    const go = (n: number, label: string, disabled: boolean) => {
      const b = h('button', { type: 'button', class: 'secondary', disabled }, label)
      b.addEventListener('click', () => ((page.input.value = String(n)), void bar.draw()))
      return b
    }
    return [
      h('p', { class: 'muted' }, `${res.total} model${res.total === 1 ? '' : 's'}`),
      h('ul', { class: 'models' }, res.items.map(card)),
      res.totalPages > 1
        ? h(
            'nav',
            { class: 'pager', 'aria-label': 'Pages' },
            go(res.page - 1, 'Previous', res.page <= 1),
            h('span', null, `Page ${res.page} of ${res.totalPages}`),
            go(res.page + 1, 'Next', res.page >= res.totalPages),
          )
        : null,
    ]
  })
  // A new search starts again at page 1.
  bar.form.addEventListener('input', () => (page.input.value = ''), { capture: true })
  bar.form.addEventListener('change', () => void (page.input.value = ''), { capture: true })
  view.append(bar.form, bar.out)
  await bar.draw()
}
