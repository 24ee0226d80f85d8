// Keyset pagination (DESIGN: ?limit=&cursor= → { items, nextCursor }). Newest first by
// (created_at, id); the cursor is opaque base64url of Postgres's exact timestamp text and the id,
// so pages never repeat or skip rows however many new ones arrive meanwhile.
import { GatewayError } from '../core/errors.ts'

export interface Cursor {
  at: string
  id: string
}

export const encodeCursor = (c: Cursor): string => Buffer.from(JSON.stringify([c.at, c.id])).toString('base64url')

export function decodeCursor(text: string | undefined): Cursor | undefined {
  if (text === undefined || text === '') return undefined
  try {
    const [at, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
    if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(at))) return { at, id }
  } catch {}
  throw new GatewayError('BAD_REQUEST', 'cursor is not a cursor this API returned.')
}

export function pageLimit(raw: string | undefined, max = 100, fallback = 20): number {
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1 || n > max) throw new GatewayError('BAD_REQUEST', `limit must be an integer from 1 to ${max}.`)
  return n
}

/** Rows fetched with limit + 1: the extra one only says whether another page exists. */
export function page<T extends { id: string; createdText: string }>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit)
  const last = items.at(-1)
  return { items, nextCursor: rows.length > limit && last ? encodeCursor({ at: last.createdText, id: last.id }) : null }
}
