// What the failover scenario suites share: one catalog of gateways with the policies under test
// (several gateway ids may point at one fake upstream; breakers are per gateway id), the bodies
// of the three inbound protocols, and "served once by this gateway" with its money checks.
import { expect } from 'bun:test'
import type { CatalogFile } from '../../src/catalog/file.ts'
import type { PolicyFile } from '../../src/routing/policy.ts'
import { logOf, reservedOf } from './chat.ts'
import { SINGLE_ATTEMPT, type TestGateway } from './gateway.ts'

export type Gw = { id: string; url: string; timeoutMs: number; policy: PolicyFile }

export function scenarioCatalog(gateways: Gw[], models: { id: string; routes: string[]; contextWindow?: number }[]): CatalogFile {
  return {
    gateways: gateways.map((g) => ({
      id: g.id,
      protocol: 'openai-chat' as const,
      baseUrl: `${g.url}/v1`,
      apiKey: 'sk-upstream-secret',
      timeoutMs: g.timeoutMs,
      policy: g.policy,
    })),
    models: models.map((m) => ({
      id: m.id,
      name: m.id,
      provider: 'acme',
      contextWindow: m.contextWindow ?? 128_000,
      capabilities: ['text', 'streaming'],
      pricing: { input: 0.15, output: 0.6 },
      routes: m.routes.map((gateway) => ({ gateway, model: `upstream-secret-model-${gateway}` })),
    })),
  }
}

/**
 * The operator's view of a failing route: model acme/chat-1 on `gw-bad` (its breaker opens after
 * two failures and rests ten minutes) and on `gw-good` (no breaker, with its cost prices).
 */
export function failingRouteCatalog(
  bad: { url: string },
  good: { url: string },
  m: { contextWindow: number; pricing: { input: number; output: number }; goodCost: { input: number; output: number } },
): CatalogFile {
  const gateway = (id: string, u: { url: string }, policy: PolicyFile) => ({
    id,
    protocol: 'openai-chat' as const,
    baseUrl: `${u.url}/v1`,
    apiKey: 'sk-x',
    timeoutMs: 5_000,
    policy,
  })
  return {
    gateways: [
      gateway('gw-bad', bad, { retries: 0, breaker: { failures: 2, cooldownMs: 600_000 } }),
      gateway('gw-good', good, { retries: 0, breaker: { enabled: false } }),
    ],
    models: [
      {
        id: 'acme/chat-1',
        name: 'Chat 1',
        provider: 'acme',
        contextWindow: m.contextWindow,
        capabilities: ['text'],
        pricing: m.pricing,
        routes: [
          { gateway: 'gw-bad', model: 'up-bad' },
          { gateway: 'gw-good', model: 'up-good', cost: m.goodCost },
        ],
      },
    ],
  }
}

export const NO_RETRY = SINGLE_ATTEMPT

/** Milliseconds between consecutive arrivals of the last `n` requests an upstream saw. */
export const gaps = (seen: { at: number }[], n: number): number[] =>
  seen
    .slice(-n)
    .slice(1)
    .map((s, i) => s.at - seen.slice(-n)[i]!.at)

/**
 * The call was answered by `gateway`, logged and billed once from the upstream's usage, its
 * reservation released and the books balanced. json-text.json bills 221 micro-USD.
 */
export async function expectBilledOnce(gw: TestGateway, userId: string, requestId: string, gateway: string, cost?: bigint) {
  await gw.settled()
  expect(await reservedOf(gw, userId)).toBe(0n)
  const log = await logOf(gw, requestId)
  expect(log).toMatchObject({ status: 200, gateway, usageSource: 'upstream', errorCode: null })
  if (cost !== undefined) expect(log.costMicros).toBe(cost)
  expect(log.costMicros).toBeGreaterThan(0n)
  const books = await gw.books(userId)
  expect(books).toEqual({ balance: 1_000_000n - log.costMicros, ledgerSum: 1_000_000n - log.costMicros })
}

/** Nothing billed, nothing held, the refusal logged with `status`. */
export async function expectNothingBilled(gw: TestGateway, userId: string, requestId: string, status: number) {
  await gw.settled()
  expect(await reservedOf(gw, userId)).toBe(0n)
  expect(await gw.books(userId)).toEqual({ balance: 1_000_000n, ledgerSum: 1_000_000n })
  expect(await logOf(gw, requestId)).toMatchObject({ status, costMicros: 0n })
}
