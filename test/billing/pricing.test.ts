import { describe, expect, test } from 'bun:test'
import { costMicros, isPriced, type Pricing } from '../../src/billing/pricing.ts'
import { estimateOutputTokens, estimatePromptTokens, estimateUsage } from '../../src/billing/estimate.ts'
import { formatUsd, numberToScaled, parseDecimal, usdToMicros } from '../../src/lib/money.ts'
import type { Usage } from '../../src/core/usage.ts'

const M = (usdPerMillion: number | null) => (usdPerMillion === null ? null : numberToScaled(usdPerMillion, 9)!)
const price = (
  input: number | null,
  output: number | null,
  cacheRead: number | null = null,
  cacheWrite: number | null = null,
): Pricing => ({
  input: M(input),
  output: M(output),
  cacheRead: M(cacheRead),
  cacheWrite: M(cacheWrite),
})
const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0): Usage => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
  reasoningTokens: 0,
})

describe('costMicros', () => {
  const cases: [string, Usage, Pricing, bigint][] = [
    ['exact whole micro-USD', usage(1_000_000, 0), price(0.15, 0.6), 150_000n],
    ['rounds up a fraction once', usage(16, 363), price(0.15, 0.6), 221n], // 220.2
    ['one token of a cheap model still costs 1 micro-USD', usage(1, 0), price(0.01, 0.01), 1n],
    ['zero tokens cost zero', usage(0, 0), price(3, 15), 0n],
    ['cache terms priced separately', usage(100, 10, 1_000, 200), price(3, 15, 0.3, 3.75), 1_500n], // 300+150+300+750
    ['cache tokens pay the input price when the model has no cache price', usage(100, 0, 900, 0), price(2, 8), 2_000n],
    ['no float drift on huge counts', usage(3_000_000_000, 1_000_000_000), price(0.1, 0.3), 600_000_000n],
    ['prices with 9 decimals stay exact', usage(1_000_000_000, 0), price(0.000000001, 0), 1n],
  ]
  for (const [name, u, p, want] of cases) test(name, () => expect(costMicros(u, p)).toBe(want))

  test('priced: a chat model needs input and output prices, an embedding model an input price only', () => {
    expect([isPriced(price(1, 2)), isPriced(price(1, null)), isPriced(price(null, 2))]).toEqual([true, false, false])
    expect([isPriced(price(0.02, null), 'embedding'), isPriced(price(null, null), 'embedding')]).toEqual([true, false])
  })

  test('an embedding: input tokens only, rounded up once (2,345 tokens × $0.13/1M = 304.85 → 305 micro-USD)', () =>
    expect(
      costMicros(estimateUsage(3 * 2345, { requested: 0, choices: 1, defaultCap: 4096, contextWindow: 8192 }), price(0.13, null)),
    ).toBe(305n))
})

describe('money', () => {
  test.each([
    ['0.15', 9, 150_000_000n],
    ['-1.5', 6, -1_500_000n],
    ['10000', 6, 10_000_000_000n],
    ['0.1234567', 6, undefined],
    ['0.1234560', 6, 123_456n],
    ['abc', 6, undefined],
  ] as const)('parseDecimal(%s, %d)', (text, scale, want) => expect(parseDecimal(text, scale)).toBe(want as bigint | undefined))
  test('tiny JSON numbers convert exactly', () => expect(numberToScaled(1.5e-7, 9)).toBe(150n))
  test('usdToMicros rejects sub-micro amounts', () => expect(usdToMicros(0.0000001)).toBeUndefined())
  test.each([
    [221n, '0.00022100'],
    [0n, '0.00000000'],
    [12_345_678_901n, '12345.67890100'],
    [-5n, '-0.00000500'],
  ] as const)('formatUsd(%p)', (micros, text) => expect(formatUsd(micros)).toBe(text))
})

describe('reservation estimate', () => {
  test('prompt estimate over-counts at 3 characters per token', () => expect(estimatePromptTokens(300)).toBe(100))
  test.each([
    ['requested max tokens', { requested: 50, choices: 1, defaultCap: 4096, contextWindow: 8000 }, 50],
    ['default cap when none requested', { requested: undefined, choices: 1, defaultCap: 4096, contextWindow: 128_000 }, 4096],
    ['never beyond the context window left', { requested: 100_000, choices: 1, defaultCap: 4096, contextWindow: 8_000 }, 7_900],
    ['times n choices', { requested: 50, choices: 3, defaultCap: 4096, contextWindow: 8000 }, 150],
  ] as const)('%s', (_n, cap, want) => expect(estimateOutputTokens(100, cap)).toBe(want))
  test('estimateUsage combines both', () =>
    expect(estimateUsage(30, { requested: 5, choices: 1, defaultCap: 10, contextWindow: 100 })).toEqual(usage(10, 5)))
})
