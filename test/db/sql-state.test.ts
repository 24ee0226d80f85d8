// The SQLSTATE of an error, found on it or through the causes a driver wraps it in.
import { expect, test } from 'bun:test'
import { sqlState } from '../../src/db/sql-state.ts'

test('the code of the error itself, or of a cause up to three levels down; nothing else passes for one', () => {
  const pg = Object.assign(new Error('duplicate key'), { code: '23505' })
  expect(sqlState(pg)).toBe('23505')
  expect(sqlState(new Error('query failed', { cause: pg }))).toBe('23505')
  const deep = new Error('a', { cause: new Error('b', { cause: new Error('c', { cause: pg }) }) })
  expect(sqlState(deep)).toBe('23505')
  expect(sqlState(new Error('a', { cause: deep }))).toBeUndefined()
  expect(sqlState(Object.assign(new Error('node'), { code: 'ECONNREFUSED' }))).toBeUndefined()
  expect(sqlState(undefined)).toBeUndefined()
})
