// The in-process breaker board keeps the board contract; readShared trusts nothing it is sent.
import { describe, expect, test } from 'bun:test'
import { createMemoryBoard, readShared } from '../../src/store/breaker-board.ts'
import { boardContract } from './board-contract.ts'

boardContract('memory', async () => {
  const board = createMemoryBoard()
  return { a: board, b: board }
})

describe('readShared', () => {
  test('an open change with a finite until and a closed change are read', () => {
    expect(readShared('{"key":"gw|m","state":{"phase":"open","until":1700000000000}}')).toEqual({
      key: 'gw|m',
      state: { phase: 'open', until: 1_700_000_000_000 },
    })
    expect(readShared('{"key":"gw|m","state":{"phase":"closed","extra":1}}')).toEqual({ key: 'gw|m', state: { phase: 'closed' } })
  })

  test.each([
    'not json',
    'null',
    '{"state":{"phase":"closed"}}',
    '{"key":7,"state":{"phase":"closed"}}',
    '{"key":"k","state":{"phase":"half-open"}}',
    '{"key":"k","state":{"phase":"open"}}',
    '{"key":"k","state":{"phase":"open","until":"soon"}}',
    '{"key":"k"}',
  ])('%s is refused', (json) => expect(readShared(json)).toBeUndefined())
})

test('the in-process probe slot follows its clock', async () => {
  let now = 1_000
  const board = createMemoryBoard(() => now)
  expect(await board.claimProbe('k', 500)).toBe(true)
  now = 1_499
  expect(await board.claimProbe('k', 500)).toBe(false)
  now = 1_500
  expect(await board.claimProbe('k', 500)).toBe(true)
})

test('after close, subscribers hear nothing more', async () => {
  const board = createMemoryBoard()
  const heard: string[] = []
  board.subscribe((key) => heard.push(key))
  await board.close()
  await board.publish('k', { phase: 'closed' })
  await Bun.sleep(5)
  expect(heard).toEqual([])
})
