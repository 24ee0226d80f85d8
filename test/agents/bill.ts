// The bill of one agent run: each upstream call the agent caused has its request log, billed to
// the token at the suite's prices (1 USD per 1M input tokens, 2 USD per 1M output tokens, so one
// micro-USD per input token and two per output token), and the balance moved by exactly that.
import { expect } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { requestLogs } from '../../src/db/schema/index.ts'
import type { TestGateway } from '../helpers/gateway.ts'
import type { Usage } from './upstream-turns.ts'

/** `usage`: billed as reported; `estimate`: a call cut before its usage, billed an estimate above zero. */
export type Billed = Usage | 'estimate'

export async function expectBill(gw: TestGateway, userId: string, creditMicros: bigint, calls: Billed[]): Promise<void> {
  await gw.settled()
  const logs = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.userId, userId)).orderBy(asc(requestLogs.createdAt))
  expect(logs).toHaveLength(calls.length)
  calls.forEach((call, i) => {
    const log = logs[i]!
    if (call === 'estimate') expect(log.costMicros).toBeGreaterThan(0n)
    else
      expect({ input: log.inputTokens, output: log.outputTokens, cost: log.costMicros }).toEqual({
        input: call.input,
        output: call.output,
        cost: BigInt(call.input + 2 * call.output),
      })
  })
  const total = logs.reduce((s, l) => s + l.costMicros, 0n)
  expect(await gw.books(userId)).toEqual({ balance: creditMicros - total, ledgerSum: creditMicros - total })
}
