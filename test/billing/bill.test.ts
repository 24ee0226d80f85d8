// The billing rule (src/billing/bill.ts) against its table in docs/api.md "What a call is billed",
// row by row: every end and kind of reported usage a row names is run through billFor, and the
// usage, its source and the log status must be the row's.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { type BilledEnd, billFor, type CallTally, NOTHING_DELIVERED, ZERO_USAGE } from '../../src/billing/bill.ts'
import { endStatus } from '../../src/core/call-end.ts'
import type { EndCause } from '../../src/core/call-end.ts'
import { GatewayError } from '../../src/core/errors.ts'
import type { ReportedUsage, Usage } from '../../src/core/usage.ts'
import { ROOT } from '../docs/blocks.ts'

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0): Usage => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: cacheRead,
  cacheWriteTokens: cacheWrite,
  reasoningTokens: 0,
})
const ESTIMATE = usage(1000, 400)
const FINAL = usage(120, 80, 30, 0)
const PLACEHOLDER = usage(900, 1, 50, 10)
/** 600 characters reached the client: 150 tokens at 4 characters each. */
const DELIVERED_CHARS = 600
const DELIVERED = 150

const REPORTED: Record<string, ReportedUsage | undefined> = {
  final: { usage: FINAL, final: true },
  placeholder: { usage: PLACEHOLDER, final: false },
  none: undefined,
}
const EXPECTED: Record<string, Usage> = {
  reported: FINAL,
  estimate: ESTIMATE,
  'placeholder prompt + delivered': usage(900, DELIVERED, 50, 10),
  'prompt estimate + delivered': usage(1000, DELIVERED),
  nothing: ZERO_USAGE,
  'prompt estimate': usage(1000, 0),
}

const upstreamError = new GatewayError('UPSTREAM_ERROR', 'x')
const refusedError = new GatewayError('VALIDATION_FAILED', 'x')

/** The ends a cell names, in order ("`upstream_failed` after the first byte, `client_left`, …"). */
function endsOf(cell: string): { end: BilledEnd; cause?: EndCause }[] {
  return [...cell.matchAll(/`([a-z_]+)`( (after|before) the first byte)?/g)].map((m) => {
    const kind = m[1]!
    if (kind === 'upstream_failed') {
      const afterFirstByte = m[3] === 'after'
      return { end: { kind, afterFirstByte }, cause: { kind, error: upstreamError, afterFirstByte } }
    }
    if (kind === 'refused') return { end: { kind }, cause: { kind, error: refusedError } }
    if (kind === 'abandoned') return { end: { kind } }
    return { end: { kind } as BilledEnd, cause: { kind } as EndCause }
  })
}

const ticks = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)

const api = readFileSync(`${ROOT}docs/api.md`, 'utf8')
const section = api.slice(api.indexOf('### What a call is billed'))
const table = section.slice(0, section.indexOf('\n\n', section.indexOf('|---')))
const rows = table
  .split('\n')
  .filter((l) => l.startsWith('| `'))
  .map((l) => l.slice(2, -2).split(' | '))

describe('docs/api.md "What a call is billed" is the billing rule', () => {
  test('the table is read: every end of a call appears in it', () => {
    expect(rows.length).toBeGreaterThanOrEqual(6)
    const kinds = new Set(rows.flatMap(([ends]) => endsOf(ends!).map((e) => e.end.kind)))
    expect([...kinds].sort()).toEqual(['abandoned', 'client_left', 'completed', 'deadline', 'drain', 'refused', 'upstream_failed'])
  })

  for (const [ends, reported, billed, source, status] of rows)
    test(`${ends} · ${reported} → ${billed}`, () => {
      const expected = EXPECTED[ticks(billed!)[0]!]
      expect(expected).toBeDefined()
      const statuses = status!.split(', ')
      for (const [i, { end, cause }] of endsOf(ends!).entries())
        for (const kind of ticks(reported!)) {
          expect(Object.keys(REPORTED)).toContain(kind)
          const tally: CallTally =
            end.kind === 'abandoned' ? NOTHING_DELIVERED : { reported: REPORTED[kind], started: true, deliveredChars: DELIVERED_CHARS }
          expect(billFor(ESTIMATE, end, tally)).toEqual({ usage: expected!, source: ticks(source!)[0] as never })
          if (!cause) continue
          const want = statuses[i] ?? statuses[0]!
          const got = endStatus(cause).status
          expect(want === "the error's status" ? got === (cause as { error: GatewayError }).error.status : String(got) === want).toBe(true)
        }
    })
})

describe('the billing rule at its edges', () => {
  const cut = (t: Partial<CallTally>) => billFor(ESTIMATE, { kind: 'client_left' }, { ...NOTHING_DELIVERED, ...t }).usage
  test('nothing reached the client and nothing was counted: no output', () => {
    expect(cut({ started: false, deliveredChars: 0 }).outputTokens).toBe(0)
  })
  test('the delivered output never exceeds what the reservation covered', () => {
    expect(cut({ started: true, deliveredChars: 10_000_000 }).outputTokens).toBe(ESTIMATE.outputTokens)
  })
  test("a placeholder's output count is a floor, not the bill", () => {
    const placeholder = { usage: usage(900, 300), final: false }
    expect(cut({ started: true, deliveredChars: 40, reported: placeholder }).outputTokens).toBe(300)
    expect(cut({ started: true, deliveredChars: 4_000, reported: placeholder }).outputTokens).toBe(400)
  })
  test('a placeholder without a prompt count leaves the prompt estimate', () => {
    expect(cut({ started: true, deliveredChars: 40, reported: { usage: usage(0, 1), final: false } }).inputTokens).toBe(1000)
  })
})
