// The environment variables Tollgate reads: the names of src/config/env-schema.ts, which
// src/config.ts (the only reader of the environment) parses.
import { EnvSchema } from '../../src/config/env-schema.ts'

export const CONFIG_VARIABLES: ReadonlySet<string> = new Set(Object.keys(EnvSchema.properties))
