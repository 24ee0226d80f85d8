import { describe, expect, test } from 'bun:test'
import { catalogModel as model } from '../helpers/catalog-model.ts'
import type { CatalogModel, Lookup } from '../../src/catalog/catalog.ts'
import { GatewayError } from '../../src/core/errors.ts'
import { type ChainAsk, candidates, takeModels, worthTrying } from '../../src/inference/candidates.ts'

const catalog = (models: CatalogModel[], unavailable: string[] = []) => ({
  lookup(slug: string): Lookup {
    const m = models.find((x) => x.id === slug)
    if (!m) return { ok: false, reason: 'unknown' }
    return unavailable.includes(slug) ? { ok: false, reason: 'unavailable', model: m } : { ok: true, model: m }
  },
})
const ids = (ms: CatalogModel[]) => ms.map((m) => m.id)
/** A chat call for `model` (and the request's `models`), any key, a prompt that fits every window. */
const ask = (model: string, models?: string[], more: Partial<ChainAsk> = {}): ChainAsk => ({
  model,
  models,
  kind: 'chat',
  fitChars: 0,
  allows: () => true,
  ...more,
})

describe('takeModels', () => {
  test('a body without `models` is returned as it is', () => {
    const raw = { model: 'a' }
    expect(takeModels(raw)).toEqual({ raw, models: undefined })
  })
  test('`models` is taken out of the body; `model` is filled from it only when absent', () => {
    expect(takeModels({ models: ['b', 'c'], x: 1 })).toEqual({ raw: { model: 'b', x: 1 }, models: ['b', 'c'] })
    expect(takeModels({ model: 'a', models: ['b'] })).toEqual({ raw: { model: 'a' }, models: ['b'] })
  })
  test('anything but 1 to 8 non-empty strings is a 422 naming `models`', () => {
    for (const bad of ['a', [], [''], [1], Array(9).fill('m')]) {
      const err = (() => {
        try {
          takeModels({ model: 'a', models: bad })
        } catch (e) {
          return e as GatewayError
        }
      })()
      expect(err?.code).toBe('VALIDATION_FAILED')
      expect(err?.extra.param).toBe('models')
    }
  })
})

describe('candidates', () => {
  const a = model('a', { fallbacks: ['b', 'gone', 'off'] })
  const c = catalog([a, model('b'), model('c'), model('off')], ['off'])
  test('without a request list: the model, then its catalog fallbacks that can serve (unknown and unavailable passed over)', () => {
    expect(ids(candidates(c, ask('a')))).toEqual(['a', 'b'])
  })
  test('a request list replaces the catalog fallbacks; duplicates are dropped', () => {
    expect(ids(candidates(c, ask('a', ['c', 'a', 'c'])))).toEqual(['a', 'c'])
  })
  test('an unknown slug the client named is its not-found; an unavailable first model hands over to its fallbacks', () => {
    expect(() => candidates(c, ask('a', ['nope']))).toThrow(GatewayError)
    expect(() => candidates(c, ask('nope'))).toThrow("Model 'nope' does not exist.")
    const off = catalog([model('x', { fallbacks: ['b'] }), model('b')], ['x'])
    expect(ids(candidates(off, ask('x')))).toEqual(['b'])
    expect(() => candidates(catalog([model('x')], ['x']), ask('x'))).toThrow('currently unavailable')
  })
})

describe('fitting and worthTrying', () => {
  test('a prompt that cannot fit leaves a candidate out; none fitting is the first one’s context error', () => {
    const c = catalog([model('s', { contextWindow: 1_000 }), model('l', { contextWindow: 100_000 })])
    expect(ids(candidates(c, ask('s', ['l'], { fitChars: 60_000 })))).toEqual(['l'])
    expect(() => candidates(c, ask('s', ['l'], { fitChars: 6_000_000 }))).toThrow('context window of 1000 tokens')
  })
  test('the key’s allowlist comes before the fit: the first allowed candidate’s window is the error; none allowed is 403', () => {
    const c = catalog([model('s', { contextWindow: 1_000 }), model('l', { contextWindow: 100_000 })])
    const onlyL = { allows: (id: string) => id === 'l' }
    expect(() => candidates(c, ask('s', ['l'], { fitChars: 6_000_000, ...onlyL }))).toThrow('context window of 100000 tokens')
    expect(() => candidates(c, ask('s', undefined, onlyL))).toThrow("This API key may not call model 's'.")
  })
  test('after "too long" only a larger window is worth it; after spent routes any; after a client error none', () => {
    const failed = model('m', { contextWindow: 8_000 })
    const tooLong = new GatewayError('CONTEXT_LENGTH_EXCEEDED', 'x')
    expect(worthTrying(model('s', { contextWindow: 4_000 }), failed, tooLong)).toBe(false)
    expect(worthTrying(model('l', { contextWindow: 16_000 }), failed, tooLong)).toBe(true)
    expect(worthTrying(model('s', { contextWindow: 4_000 }), failed, new GatewayError('UPSTREAM_UNAVAILABLE', 'x'))).toBe(true)
    expect(worthTrying(model('l'), failed, new GatewayError('BAD_REQUEST', 'x'))).toBe(false)
  })
})
