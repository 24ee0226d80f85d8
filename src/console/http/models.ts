// Models the console features share: the list shape (docs/console.md "Conventions": `{ items, nextCursor }`,
// `?limit=&cursor=`), nullable fields and string enums.
import type { TLiteral, TUnion } from '@sinclair/typebox'
import { t, type TSchema } from 'elysia'
import { MAX_PAGE } from './pagination.ts'

export const PageQuery = {
  limit: t.Optional(
    t.Integer({
      minimum: 1,
      maximum: MAX_PAGE,
      description: `Items per page, 1–${MAX_PAGE} (default 20)`,
      error: `limit must be an integer from 1 to ${MAX_PAGE}.`,
    }),
  ),
  cursor: t.Optional(
    t.String({ maxLength: 200, description: 'The nextCursor of the previous page', error: 'cursor is not a cursor this API returned.' }),
  ),
}

export const pageOf = <T extends TSchema>(item: T) =>
  t.Object({ items: t.Array(item), nextCursor: t.Union([t.String(), t.Null()], { description: 'null on the last page' }) })

export const Nullable = <T extends TSchema>(s: T) => t.Union([s, t.Null()])

/** A union of string literals. (t.UnionEnum would do, but Elysia fills an absent optional query
 *  parameter of that kind with its first value.) */
export const OneOf = <const T extends readonly string[]>(name: string, values: T, options?: { description?: string }) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    { error: `${name} must be one of: ${values.join(', ')}.`, ...options },
  ) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>

/** OpenAPI: the route needs the svc_session cookie (the `session` scheme in app.ts). */
export const SESSION_SECURITY = [{ session: [] as string[] }]
