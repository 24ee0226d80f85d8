// Keyset pagination (docs/console.md "Conventions": ?limit=&cursor= → { items, nextCursor }; nextCursor null on the
// last page). Lists run newest first by (created_at, id); the cursor is opaque base64url of the
// last row's created_at in epoch microseconds (Postgres's full precision, which a JS Date would
// lose) and its id. A page is the rows strictly after the cursor, so rows that existed when
// paging began are never repeated or skipped, however many new ones arrive meanwhile.
import { sql, type Column, type SQL } from 'drizzle-orm'
import { GatewayError } from '../../core/errors.ts'

export interface Cursor {
  /** created_at in epoch microseconds, as decimal text. */
  at: string
  id: string
}

/** 9999-12-31T23:59:59.999999Z in epoch microseconds. */
const MAX_CURSOR_AT = 253_402_300_799_999_999n

export const DEFAULT_PAGE = 20
export const MAX_PAGE = 100

export const encodeCursor = (c: Cursor): string => Buffer.from(`${c.at}.${c.id}`).toString('base64url')

export function decodeCursor(text: string | undefined): Cursor | undefined {
  if (text === undefined || text === '') return undefined
  const m = /^(\d{1,20})\.([A-Za-z0-9_-]{1,100})$/.exec(Buffer.from(text, 'base64url').toString('utf8'))
  // A cursor that decodes but lies outside what Postgres can hold (bigint microseconds, and the
  // timestamptz range) is as unrecognised as garbage.
  if (!m || BigInt(m[1]!) > MAX_CURSOR_AT) throw new GatewayError('BAD_REQUEST', 'cursor is not a cursor this API returned.')
  return { at: m[1]!, id: m[2]! }
}

/** The row's created_at as the cursor needs it; select it beside the row. */
export const cursorAt = (createdAt: Column): SQL<string> => sql<string>`(extract(epoch from ${createdAt}) * 1000000)::bigint::text`

/** Strictly after the cursor in (created_at desc, id desc) order. Exact integer arithmetic. */
export function after(createdAt: Column, id: Column, cursor: string | undefined): SQL | undefined {
  const c = decodeCursor(cursor)
  return c ? sql`(${createdAt}, ${id}) < (timestamptz 'epoch' + ${c.at}::bigint * interval '1 microsecond', ${c.id})` : undefined
}

export const newestFirst = (createdAt: Column, id: Column): SQL => sql`${createdAt} desc, ${id} desc`

/** Rows fetched with limit + 1: the extra one only says whether another page exists. */
export function page<T>(rows: { row: T; at: string; id: string }[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit)
  const last = items.at(-1)
  return { items: items.map((r) => r.row), nextCursor: rows.length > limit && last ? encodeCursor({ at: last.at, id: last.id }) : null }
}
