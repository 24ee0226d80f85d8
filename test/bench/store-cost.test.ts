// What a call costs the stores (bench/store-cost.ts): the difference of two readings spread over
// the calls between them — CPU per call, every command counted under its own name (the bench's
// own INFO left out), and the time of what the client sent (scripts, outbox reads; the ack is
// a script too, so its XACK is timed inside EVALSHA).
import { describe, expect, test } from 'bun:test'
import { fmtCommands, fmtSent, storeCost, type StoreReading } from '../../bench/store-cost.ts'

const before: StoreReading = {
  redisCpuUs: 1_000_000,
  pgCpuUs: 5_000_000,
  commands: { evalsha: 10, hincrby: 60, info: 3, xreadgroup: 1, xadd: 10 },
  usec: { evalsha: 100, hincrby: 30, info: 9, xreadgroup: 4, xadd: 5 },
}
const after: StoreReading = {
  redisCpuUs: 1_000_000 + 1_000 * 18,
  pgCpuUs: 5_000_000 + 1_000 * 30,
  commands: { evalsha: 135, hincrby: 4_060, info: 5, xreadgroup: 3, xadd: 1_010, xack: 2 },
  usec: { evalsha: 100 + 16_000, hincrby: 30 + 2_000, info: 20, xreadgroup: 4 + 900, xadd: 5 + 500, xack: 200 },
}

describe('store cost per call', () => {
  const cost = storeCost(before, after, 1_000)

  test('CPU of Redis and of Postgres, per call', () => {
    expect(cost.redisUs).toBeCloseTo(18, 9)
    expect(cost.pgUs).toBeCloseTo(30, 9)
  })

  test("commands per call by name, most first, without the bench's INFO; their sum", () => {
    expect(cost.commands).toEqual([
      ['hincrby', 4],
      ['xadd', 1],
      ['evalsha', 0.125],
      ['xreadgroup', 0.002],
      ['xack', 0.002],
    ])
    expect(cost.commandsTotal).toBeCloseTo(5.129, 9)
    expect(fmtCommands(cost.commands.slice(0, 2))).toBe('4.00 hincrby, 1.00 xadd')
  })

  test('the time of what the client sent: scripts and outbox reads, not what the scripts ran (the ack’s XACK included)', () => {
    expect(cost.sent).toEqual([
      ['evalsha', 16],
      ['xreadgroup', 0.9],
    ])
    expect(fmtSent(cost.sent.slice(0, 1))).toBe('evalsha 16.00 µs')
  })
})
