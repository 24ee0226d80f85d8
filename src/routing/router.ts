// What failover needs from the process: the breakers (shared through the store's board), the
// counters, the log and the clock. Built once in runtime.ts; tests may pass a fake clock.
import type { Logger } from '../lib/log.ts'
import type { BreakerBoard } from '../store/breaker-board.ts'
import { Breakers } from './breakers.ts'
import { FailoverCounters } from './counters.ts'

export class Router {
  readonly counters = new FailoverCounters()
  readonly breakers: Breakers

  constructor(
    readonly board: BreakerBoard,
    readonly log: Logger,
    readonly now: () => number = Date.now,
    readonly sleep: (ms: number) => Promise<void> = (ms) => Bun.sleep(ms),
  ) {
    this.breakers = new Breakers(board, log, this.counters, now)
  }

  async start(syncMs: number): Promise<void> {
    await this.breakers.start(syncMs)
  }

  async stop(): Promise<void> {
    this.breakers.stop()
    await this.board.close()
  }
}
