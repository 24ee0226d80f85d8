// The admin API's request context: the gate (gate.ts) runs before the body is read and before any
// validation, so an unauthenticated caller learns nothing, not even whether its body would have
// been valid; then the body (http/console-body.ts), the safe-text rule over query and path, and
// the route's schema. Every route gets `actor`, who the audit log names. Unnamed on purpose:
// each admin feature gets its own copy of the scoped hooks.
import { Elysia } from 'elysia'
import { sessionToken } from '../console/http/cookies.ts'
import { checkParams, consoleBody } from '../http/console-body.ts'
import { consoleErrorHook } from '../http/console-error.ts'
import type { AdminDeps } from './deps.ts'
import type { adminGate } from './gate.ts'

export type Gate = ReturnType<typeof adminGate>

export function adminContext(deps: Pick<AdminDeps, 'config' | 'log'>, gate: Gate) {
  return new Elysia()
    .onError({ as: 'scoped' }, consoleErrorHook(deps.log))
    .onParse({ as: 'scoped' }, async ({ request, contentType, server, cookie }) => {
      await gate(request, server, sessionToken(cookie))
      return consoleBody(request, contentType, deps.config.maxBodyBytes)
    })
    .derive({ as: 'scoped' }, async ({ request, server, set, query, params, cookie }) => {
      const { headers, actor } = await gate(request, server, sessionToken(cookie))
      Object.assign(set.headers, headers)
      checkParams(query, params)
      return { actor }
    })
}
