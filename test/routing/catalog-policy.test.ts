// The catalog's optional gateways[].policy (docs/failover.md "Catalog fields"): the README's and
// docs' examples stay valid, a policy round-trips through Postgres into the snapshot with the
// defaults filled in, and a bad policy refuses the catalog naming the field.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { CatalogFileError, parseCatalogFile } from '../../src/catalog/file.ts'
import { DEFAULT_POLICY } from '../../src/routing/policy.ts'
import { scenarioCatalog } from '../helpers/failover.ts'
import { startTestGateway, type TestGateway } from '../helpers/gateway.ts'

const jsonBlocks = (path: string) =>
  [...readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!)

describe('catalog policy', () => {
  test('the README catalog (no policy) is still valid, and so is the docs example gateway', () => {
    const readme = JSON.parse(jsonBlocks('README.md').find((b) => b.includes('"gateways"'))!)
    expect(parseCatalogFile(readme).gateways[0]!.policy).toBeUndefined()
    const gateway = JSON.parse(jsonBlocks('docs/failover.md')[0]!)
    expect(parseCatalogFile({ ...readme, gateways: [gateway, ...readme.gateways.slice(1)] }).gateways[0]!.policy).toEqual({
      ...DEFAULT_POLICY,
    }) // the docs list the real defaults
  })

  test('a bad policy refuses the catalog, naming the field', () => {
    const base = scenarioCatalog([{ id: 'gw', url: 'http://x', timeoutMs: 1_000, policy: {} }], [{ id: 'm', routes: ['gw'] }])
    for (const [policy, path] of [
      [{ retries: -1 }, 'gateways[0].policy.retries: '],
      [{ retrys: 2 }, 'gateways[0].policy.retrys: unknown field; did you mean retries?'],
      [{ breaker: { failureRate: 1.5 } }, 'gateways[0].policy.breaker.failureRate: '],
      [{ firstTokenMs: 0 }, 'gateways[0].policy.firstTokenMs: '],
    ] as const) {
      const bad = { ...base, gateways: [{ ...base.gateways[0]!, policy }] }
      expect(() => parseCatalogFile(bad)).toThrow(CatalogFileError)
      expect(() => parseCatalogFile(bad)).toThrow(path)
    }
  })

  describe('through Postgres into the snapshot', () => {
    let gw: TestGateway
    beforeAll(async () => {
      gw = await startTestGateway(
        { db: 'pglite', store: 'memory' },
        scenarioCatalog(
          [
            { id: 'gw-set', url: 'http://127.0.0.1:9', timeoutMs: 1_000, policy: { retries: 4, breaker: { cooldownMs: 77 } } },
            { id: 'gw-empty', url: 'http://127.0.0.1:9', timeoutMs: 1_000, policy: {} },
          ],
          [{ id: 'acme/m', routes: ['gw-set', 'gw-empty'] }],
        ),
      )
    }, 30_000)
    afterAll(async () => gw.stop(), 30_000)

    test('fields left out take the defaults', () => {
      const [set, empty] = gw.runtime.deps.catalog.all()[0]!.routes.map((r) => r.gateway.policy)
      expect(set).toEqual({ ...DEFAULT_POLICY, retries: 4, breaker: { ...DEFAULT_POLICY.breaker, cooldownMs: 77 } })
      expect(empty).toEqual(DEFAULT_POLICY)
    })
  })
})
