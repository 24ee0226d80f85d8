// A CPU profile as shares per owner (bench/profile-shares.ts): each sample is charged to the
// nearest frame of the project — a file of src/ or a package of node_modules — so native work
// counts for the code that asked for it; samples with no project frame are the runtime's.
import { describe, expect, test } from 'bun:test'
import { ownerOf, shares } from '../../bench/profile-shares.ts'

const ROOT = new URL('../..', import.meta.url).pathname
const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url },
  children,
})

describe('profile shares', () => {
  test('owners: a src file, a package (scoped too), nothing outside the project', () => {
    expect(ownerOf(`file://${ROOT}src/inference/pipeline.ts`)).toBe('src/inference/pipeline.ts')
    expect(ownerOf(`${ROOT}node_modules/ioredis/built/Command.js`)).toBe('ioredis')
    expect(ownerOf(`${ROOT}node_modules/@sinclair/typebox/build/index.mjs`)).toBe('@sinclair/typebox')
    expect(ownerOf('node:events')).toBeUndefined()
    expect(ownerOf('')).toBeUndefined()
  })

  test('a native leaf counts for its nearest project frame; idle samples count for nothing', () => {
    const profile = {
      nodes: [
        frame(1, '(root)', '', [2, 5, 6]),
        frame(2, 'sendCommand', `${ROOT}node_modules/ioredis/built/Redis.js`, [3]),
        frame(3, 'emit', 'node:events', [4]),
        frame(4, 'writeBuffered', ''),
        frame(5, 'protocolCall', `file://${ROOT}src/inference/pipeline.ts`),
        frame(6, '(idle)', ''),
      ],
      samples: [4, 4, 5, 1, 6],
      timeDeltas: [1_000, 3_000, 500, 250, 9_000],
    }
    expect(shares(profile)).toEqual(
      new Map([
        ['ioredis', 4_000],
        ['src/inference/pipeline.ts', 500],
        ['(runtime)', 250],
      ]),
    )
  })
})
