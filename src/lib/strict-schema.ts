// The strict copy of a TypeBox schema: every object in it refuses members it does not declare
// (additionalProperties: false, unless the schema says otherwise). The catalog file and the
// admin and console bodies are strict; the /v1 protocol bodies are not (docs/api.md "Protocols").
import { Kind, type TSchema } from '@sinclair/typebox'

const DATA = new Set(['const', 'default', 'examples'])

/** A deep copy of `schema` with `additionalProperties: false` on every object schema lacking one. */
export function strictSchema<T extends TSchema>(schema: T): T {
  return strictCopy(schema) as T
}

function strictCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strictCopy)
  if (value === null || typeof value !== 'object') return value
  // A spread keeps TypeBox's symbol-keyed members (Kind, OptionalKind).
  const copy: Record<string | symbol, unknown> = { ...value }
  const kind = (value as Record<symbol, unknown>)[Kind]
  // A schema's literal values (const, default, examples) are data, copied as they are.
  for (const [k, v] of Object.entries(value)) copy[k] = kind !== undefined && DATA.has(k) ? v : strictCopy(v)
  if (kind === 'Object' && copy.additionalProperties === undefined) copy.additionalProperties = false
  return copy
}
