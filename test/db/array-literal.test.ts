// Array literals as the ledger writer binds them: Postgres (and PGlite) must read back exactly
// the values written, whatever text they hold.
import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { booleanArray, integerArray, textArray } from '../../src/db/array-literal.ts'
import { executePrepared } from '../../src/db/prepared.ts'
import { describeOnDatabases } from '../helpers/migrated-databases.ts'

const TEXTS = [
  'req_abc',
  '',
  'NULL',
  'null',
  ' padded ',
  'a,b',
  '{braces}',
  'quote " inside',
  'back\\slash',
  '\\"both\\"',
  'new\nline\ttab\rreturn',
  'acme/chat-1 😀',
  'é',
  null,
  '"',
  '\\',
]

describe('array literals', () => {
  test('text: every element quoted, quotes and backslashes escaped, null as NULL', () => {
    expect(textArray(['a', null, 'NULL', 'x"y', 'b\\c'])).toBe('{"a",NULL,"NULL","x\\"y","b\\\\c"}')
    expect(textArray([])).toBe('{}')
  })

  test('integers and booleans', () => {
    expect(integerArray([1, -2, 0, 9007199254740991, 123456789012345678901n])).toBe('{1,-2,0,9007199254740991,123456789012345678901}')
    expect(booleanArray([true, false])).toBe('{t,f}')
  })
})

describeOnDatabases('array literals read', (database) => {
  test('each text comes back as written, in order', async () => {
    const rows = await executePrepared<{ v: string | null }>(
      database().db,
      sql`select v from unnest(${textArray(TEXTS)}::text::text[]) with ordinality as t(v, n) order by n`,
    )
    expect(rows.map((r) => r.v)).toEqual(TEXTS)
  })

  test('integers, bigints and booleans come back as written', async () => {
    const [row] = await executePrepared<{ i: string; b: string; f: string }>(
      database().db,
      sql`select ${integerArray([1, -2, 2147483647])}::text::int[]::text as i, ${integerArray([-(2n ** 63n), 2n ** 63n - 1n])}::text::bigint[]::text as b,
          ${booleanArray([true, false])}::text::bool[]::text as f`,
    )
    expect(row).toEqual({ i: '{1,-2,2147483647}', b: '{-9223372036854775808,9223372036854775807}', f: '{t,f}' })
  })
})
