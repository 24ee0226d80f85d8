// Postgres array literals (`{"a","b",NULL}`, `{1,2,3}`), for a statement that takes a batch as
// one array per column (billing/ledger-batch.ts): Postgres reads such an array with its array
// and scalar input functions, far less work per value than unpacking the same rows from JSON
// (docs/scaling.md "The writer's statement"). Bound as text and cast in the statement
// (`$1::text::text[]`), so the driver sends it as it is on postgres.js and on PGlite.

const ESCAPES = /["\\]/g

/** Every element double-quoted (so `NULL`, `{`, `,` and spaces stay text), `"` and `\` escaped; null is NULL. */
export function textArray(values: readonly (string | null)[]): string {
  // Ids, names and codes hold neither quote nor backslash nor null: one join (native) then.
  for (const v of values) if (v === null || v.includes('"') || v.includes('\\')) return `{${values.map(element).join(',')}}`
  return values.length === 0 ? '{}' : `{"${values.join('","')}"}`
}

const element = (v: string | null): string => (v === null ? 'NULL' : `"${v.replace(ESCAPES, '\\$&')}"`)

/** Integers (int2/int4/int8 arrays; safe integers or bigints): their decimal text, comma-separated. */
export const integerArray = (values: readonly (number | bigint)[]): string => `{${values.join(',')}}`

/** Booleans as `t` and `f`. */
export const booleanArray = (values: readonly boolean[]): string => `{${values.map((b) => (b ? 't' : 'f')).join(',')}}`
