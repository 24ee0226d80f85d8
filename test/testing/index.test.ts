// The kit's entry (src/testing/index.ts) loads kit.ts after starting PGlite's compile and names
// its exports again: the two lists must not drift apart.
import { expect, test } from 'bun:test'
import * as kit from '../../src/testing/kit.ts'
import * as entry from 'tollgate/testing'

test('tollgate/testing exports every value kit.ts exports, and the same ones', () => {
  expect(Object.keys(entry).sort()).toEqual(Object.keys(kit).sort())
  expect(entry.startTollgate).toBe(kit.startTollgate)
  expect(new entry.TollgateAdminError(400, 'x')).toBeInstanceOf(kit.TollgateAdminError)
})
