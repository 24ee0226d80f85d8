// Body validation shared by the spokes: a compiled TypeBox check whose first issue becomes the
// VALIDATION_FAILED message (the full list rides in the error's issues).
import type { Static, TSchema } from '@sinclair/typebox'
import { GatewayError } from '../../core/errors.ts'
import { compile, type Issue } from '../../lib/validate.ts'

export const invalidBody = (issues: Issue[], prefix = ''): GatewayError =>
  new GatewayError('VALIDATION_FAILED', `${prefix}${issues[0]!.path}: ${issues[0]!.message}`, { issues, param: issues[0]!.path })

/** A parser for `schema`: returns the body, or throws VALIDATION_FAILED (message after `prefix`). */
export function bodyParser<T extends TSchema>(schema: T, prefix = ''): (raw: unknown) => Static<T> {
  const validate = compile(schema)
  return (raw) => {
    const checked = validate(raw)
    if (!checked.ok) throw invalidBody(checked.issues, prefix)
    return checked.value
  }
}
