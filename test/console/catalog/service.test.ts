// The public catalog's search (docs/console.md "Public catalog"): only available models, plain
// case-insensitive substring search, exact filters, each sort with a stable tie-break, pages,
// prices shown as USD per 1M tokens; popularity is counted from request logs at most once a minute.
import { describe, expect, test } from 'bun:test'
import type { CatalogModel } from '../../../src/catalog/catalog.ts'
import type { Route } from '../../../src/core/gateway.ts'
import { catalogItem, popularity, searchCatalog } from '../../../src/console/catalog/service.ts'

const NANO = 1_000_000_000n
const route = {} as Route

function model(id: string, o: Partial<CatalogModel> = {}): CatalogModel {
  return {
    id,
    name: id,
    description: '',
    provider: 'acme',
    family: 'f',
    contextWindow: 1000,
    kind: 'chat',
    capabilities: ['text'],
    pricing: { input: NANO, output: 2n * NANO, cacheRead: null, cacheWrite: null },
    deprecated: false,
    created: 0,
    routes: [route],
    fallbacks: [],
    ...o,
  }
}

const ids = (r: { items: { id: string }[] }) => r.items.map((i) => i.id)
const none = new Map<string, number>()

describe('searchCatalog', () => {
  const models = [
    model('acme/alpha', { name: 'Alpha', description: 'Fast CHAT model', created: 10, contextWindow: 8_000 }),
    model('acme/beta', { name: 'Beta', provider: 'Acme', capabilities: ['text', 'vision'], created: 30, contextWindow: 128_000 }),
    model('other/gamma', {
      name: 'Gamma',
      provider: 'other',
      family: 'g',
      created: 20,
      pricing: { input: 5n * NANO, output: 5n * NANO, cacheRead: null, cacheWrite: null },
    }),
    model('acme/old', { name: 'Old', deprecated: true }),
    model('acme/unpriced', { name: 'Unpriced', pricing: { input: null, output: null, cacheRead: null, cacheWrite: null } }),
    model('acme/unrouted', { name: 'Unrouted', routes: [] }),
  ]

  test('only available models are listed: deprecated, unpriced and unrouted ones are not', () => {
    expect(ids(searchCatalog(models, { sort: 'name-asc' }, none))).toEqual(['acme/alpha', 'acme/beta', 'other/gamma'])
  })

  test('q matches a substring of name or description, any case, trimmed; filters compare whole values, any case', () => {
    expect(ids(searchCatalog(models, { q: '  chat ' }, none))).toEqual(['acme/alpha'])
    expect(ids(searchCatalog(models, { q: 'GAM' }, none))).toEqual(['other/gamma'])
    // `q` is not a pattern: LIKE wildcards are plain characters.
    expect(searchCatalog(models, { q: '%' }, none).total).toBe(0)
    expect(ids(searchCatalog(models, { provider: 'ACME', sort: 'name-asc' }, none))).toEqual(['acme/alpha', 'acme/beta'])
    expect(searchCatalog(models, { provider: 'acm' }, none).total).toBe(0)
    expect(ids(searchCatalog(models, { capability: 'Vision' }, none))).toEqual(['acme/beta'])
    expect(ids(searchCatalog(models, { family: 'g' }, none))).toEqual(['other/gamma'])
  })

  test('each sort orders as named', () => {
    const sorted = (sort: any, pop = none) => ids(searchCatalog(models, { sort }, pop))
    expect(sorted('newest')).toEqual(['acme/beta', 'other/gamma', 'acme/alpha'])
    expect(sorted('context-desc')).toEqual(['acme/beta', 'acme/alpha', 'other/gamma'])
    expect(sorted('price-desc')).toEqual(['other/gamma', 'acme/alpha', 'acme/beta'])
    // alpha and beta cost the same: the name breaks the tie.
    expect(sorted('price-asc')).toEqual(['acme/alpha', 'acme/beta', 'other/gamma'])
    expect(
      sorted(
        'popular',
        new Map([
          ['other/gamma', 9],
          ['acme/beta', 3],
        ]),
      ),
    ).toEqual(['other/gamma', 'acme/beta', 'acme/alpha'])
    // Popular is the default sort.
    expect(ids(searchCatalog(models, {}, new Map([['acme/beta', 1]])))[0]).toBe('acme/beta')
  })

  test('pages: page and pageSize slice the sorted hits; total and totalPages count them all', () => {
    const many = Array.from({ length: 45 }, (_, i) => model(`m/${String(i).padStart(2, '0')}`))
    const first = searchCatalog(many, { sort: 'name-asc' }, none)
    expect([first.page, first.pageSize, first.total, first.totalPages, first.items.length]).toEqual([1, 20, 45, 3, 20])
    const last = searchCatalog(many, { sort: 'name-asc', page: 3, pageSize: 20 }, none)
    expect(ids(last)).toEqual(['m/40', 'm/41', 'm/42', 'm/43', 'm/44'])
    expect(searchCatalog(many, { page: 9 }, none).items).toEqual([])
  })
})

describe('catalogItem', () => {
  test('prices are USD per 1M tokens (from nano-USD), null stays null', () => {
    const item = catalogItem(
      model('acme/p', { pricing: { input: 150_000_000n, output: 600_000_000n, cacheRead: 75_000_000n, cacheWrite: null }, created: 42 }),
    )
    expect(item.pricing).toEqual({ input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: null, unit: '1M_tokens', currency: 'USD' })
    expect(item.created).toBe(42)
    // Routes and fallbacks stay inside: no gateway or upstream name is shown.
    expect(Object.keys(item)).not.toContain('routes')
  })
})

describe('popularity', () => {
  test('reads request logs once per minute per instance, then the cached counts', async () => {
    let now = 1_000_000
    let queries = 0
    const rows = [{ model: 'acme/a', n: 3 }]
    const db = {
      select: () => ({
        from: () => ({
          where: () => ({ groupBy: async () => (queries++, rows) }),
        }),
      }),
    }
    const counts = popularity({ db: db as any, now: () => now })
    expect((await counts()).get('acme/a')).toBe(3)
    expect(queries).toBe(1)
    now += 59_999
    await counts()
    expect(queries).toBe(1)
    now += 1
    rows[0]!.n = 5
    expect((await counts()).get('acme/a')).toBe(5)
    expect(queries).toBe(2)
  })
})
