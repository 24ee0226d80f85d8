// The environment variables src/config.ts reads (its only reader), from its source.
import { readFileSync } from 'node:fs'
import { ROOT } from './blocks.ts'

export const CONFIG_VARIABLES: ReadonlySet<string> = new Set(
  [...readFileSync(`${ROOT}src/config.ts`, 'utf8').matchAll(/\(env, '([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1]!),
)
