import { describe, expect, test } from 'bun:test'
import { byShard, inIssuedOrder } from '../../src/store/shard-groups.ts'

describe('shard groups', () => {
  const inputs = ['a1', 'b1', 'a2', 'c1', 'b2']
  const shard = (x: string) => x.charCodeAt(0) - 97

  test('byShard: each shard’s indices in the order issued, shards in the order first seen', () => {
    expect([...byShard(inputs, shard)]).toEqual([
      [0, [0, 2]],
      [1, [1, 4]],
      [2, [3]],
    ])
  })

  test('inIssuedOrder: a flat answer in group order goes back to each input, width values each', () => {
    const groups = byShard(inputs, shard)
    // What a script answers: its groups in turn, each call's values in a row.
    const flat = ['a1', 1, 'a2', 2, 'b1', 3, 'b2', 4, 'c1', 5]
    expect(inIssuedOrder(groups, flat, 2)).toEqual([
      ['a1', 1],
      ['b1', 3],
      ['a2', 2],
      ['c1', 5],
      ['b2', 4],
    ])
  })
})
