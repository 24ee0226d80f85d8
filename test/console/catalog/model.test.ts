// Public catalog models (docs/console.md "Public catalog"): the query's bounds and messages, the
// sorts it knows, and the item's pricing always in USD per 1M tokens.
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { CatalogItem, CatalogQuery, SORTS } from '../../../src/console/catalog/model.ts'

describe('CatalogQuery', () => {
  test('every member optional; each sort is known; page 1..1e6; pageSize 1..100', () => {
    expect(Value.Check(CatalogQuery, {})).toBe(true)
    expect(SORTS.every((sort) => Value.Check(CatalogQuery, { sort }))).toBe(true)
    expect(Value.Check(CatalogQuery, { sort: 'cheapest' })).toBe(false)
    expect(Value.Check(CatalogQuery, { page: 1, pageSize: 100 })).toBe(true)
    expect(Value.Check(CatalogQuery, { page: 0 })).toBe(false)
    expect(Value.Check(CatalogQuery, { pageSize: 101 })).toBe(false)
    expect(Value.Check(CatalogQuery, { q: 'x'.repeat(201) })).toBe(false)
    expect(CatalogQuery.properties.pageSize.error).toBe('pageSize must be an integer from 1 to 100.')
  })
})

describe('CatalogItem', () => {
  const item = {
    id: 'acme/a',
    name: 'A',
    description: '',
    provider: 'acme',
    family: 'a',
    contextWindow: 1000,
    capabilities: ['text'],
    pricing: { input: 1, output: 2, cacheRead: null, cacheWrite: null, unit: '1M_tokens', currency: 'USD' },
    created: 0,
  }
  test('pricing is per 1M tokens in USD; other units or currencies are not this model', () => {
    expect(Value.Check(CatalogItem, item)).toBe(true)
    expect(Value.Check(CatalogItem, { ...item, pricing: { ...item.pricing, unit: '1K_tokens' } })).toBe(false)
    expect(Value.Check(CatalogItem, { ...item, pricing: { ...item.pricing, currency: 'EUR' } })).toBe(false)
  })
})
