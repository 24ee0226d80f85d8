// The body schema of an admin or console route, strict (docs/security.md "Input"): a member the
// route does not know is refused with 422 naming it and, when close, the member meant
// (`expiresAt` for `expiresat`), rather than dropped. Elysia's own validation would drop it
// (its normalisation removes undeclared members before checking), so the check runs on the
// parsed body in the route's transform hook, after the caller was admitted and before Elysia's.
import type { TSchema } from '@sinclair/typebox'
import { GatewayError } from '../core/errors.ts'
import { strictSchema } from '../lib/strict-schema.ts'
import { compile } from '../lib/validate.ts'

/** Route options `{ body, transform }` for `schema`: spread them into the route's options. */
export function strictBody<T extends TSchema>(schema: T) {
  const body = strictSchema(schema)
  const validate = compile(body)
  return {
    body,
    transform({ body: value }: { body: unknown }) {
      const checked = validate(value ?? {})
      if (checked.ok) return
      // Every wrong member at once, so a form can mark each (docs/console.md "Conventions").
      const message = checked.issues.map((i) => `${i.path}: ${i.message}`).join('; ')
      throw new GatewayError('VALIDATION_FAILED', message, { param: checked.issues[0]!.path, issues: checked.issues })
    },
  }
}
