// POST /v1/messages/count_tokens (Anthropic; Claude Code calls it before requests). Free and
// not rate-limited by the key's window; the count is the gateway's conservative estimate
// (~4 characters per token), since upstreams count with their own tokenizers.
import { GatewayError } from '../core/errors.ts'
import { readJsonBody } from '../http/body.ts'
import { newRequestId } from '../lib/ids.ts'
import { compile } from '../lib/validate.ts'
import { messagesPromptChars } from '../protocols/messages/decode.ts'
import { messagesErrorBody } from '../protocols/messages/error.ts'
import { CountTokensRequest } from '../protocols/messages/schema.ts'
import { authenticate, resolveModel } from './call.ts'
import type { InferenceDeps } from './deps.ts'

const validate = compile(CountTokensRequest)

export async function countTokens(deps: InferenceDeps, req: Request): Promise<Response> {
  const requestId = newRequestId('req')
  try {
    await authenticate(deps, req.headers)
    const checked = validate(await readJsonBody(req, deps.config.maxBodyBytes))
    if (!checked.ok) throw new GatewayError('VALIDATION_FAILED', `${checked.issues[0]!.path}: ${checked.issues[0]!.message}`, { issues: checked.issues })
    resolveModel(deps, checked.value.model)
    const tokens = Math.max(1, Math.ceil(messagesPromptChars(checked.value) / 4))
    return Response.json({ input_tokens: tokens }, { headers: { 'x-request-id': requestId } })
  } catch (e) {
    const err = e instanceof GatewayError ? e : new GatewayError('INTERNAL', 'Internal error.', { cause: e })
    const { status, body } = messagesErrorBody(err)
    return new Response(body, { status, headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...err.extra.headers } })
  }
}
