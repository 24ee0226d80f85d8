// Public catalog models (docs/console.md "Public catalog"). Prices are USD per 1M tokens.
import { t } from 'elysia'
import { Nullable, OneOf } from '../http/models.ts'

export const SORTS = ['popular', 'newest', 'price-asc', 'price-desc', 'context-desc', 'name-asc'] as const
export type Sort = (typeof SORTS)[number]

export const CatalogQuery = t.Object({
  q: t.Optional(t.String({ maxLength: 200, description: 'Case-insensitive substring of name or description' })),
  provider: t.Optional(t.String({ maxLength: 100 })),
  capability: t.Optional(t.String({ maxLength: 100 })),
  family: t.Optional(t.String({ maxLength: 100 })),
  sort: t.Optional(OneOf('sort', SORTS, { description: 'Default popular: requests in the last 7 days' })),
  page: t.Optional(
    t.Integer({ minimum: 1, maximum: 1_000_000, description: 'From 1 (default 1)', error: 'page must be an integer from 1 to 1000000.' }),
  ),
  pageSize: t.Optional(
    t.Integer({ minimum: 1, maximum: 100, description: '1–100 (default 20)', error: 'pageSize must be an integer from 1 to 100.' }),
  ),
})
export type CatalogQuery = typeof CatalogQuery.static

export const CatalogItem = t.Object({
  id: t.String({ description: 'The slug used as `model` in requests' }),
  name: t.String(),
  description: t.String(),
  provider: t.String(),
  family: t.String(),
  contextWindow: t.Integer(),
  capabilities: t.Array(t.String()),
  pricing: t.Object({
    input: Nullable(t.Number()),
    output: Nullable(t.Number()),
    cacheRead: Nullable(t.Number()),
    cacheWrite: Nullable(t.Number()),
    unit: t.Literal('1M_tokens'),
    currency: t.Literal('USD'),
  }),
  created: t.Integer({ description: 'Added to the catalog, Unix epoch seconds' }),
})
export type CatalogItem = typeof CatalogItem.static

export const CatalogPage = t.Object({
  items: t.Array(CatalogItem),
  total: t.Integer(),
  page: t.Integer(),
  pageSize: t.Integer(),
  totalPages: t.Integer(),
})
export type CatalogPage = typeof CatalogPage.static
