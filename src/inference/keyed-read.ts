// The /v1 reads that answer JSON to a key holder (GET /v1/models/{id}, GET /v1/key): the key is
// authenticated, the answer or the error goes out in the chat envelope with its own x-request-id
// (docs/api.md "Models", "Key").
import type { ApiKeyAuth, KeyPrincipal } from '../auth/api-keys.ts'
import type { Logger } from '../lib/log.ts'
import { newRequestId } from '../lib/ids.ts'
import { chatErrorBody } from '../protocols/chat/error.ts'
import { authenticate } from './admission.ts'
import { checkClientIp } from './key-access.ts'
import { asGatewayError } from '../core/call-end.ts'
import { errorResponse } from './error-response.ts'

export interface KeyedReadDeps {
  auth: Pick<ApiKeyAuth, 'verify'>
  log: Logger
}

/** `read`'s value as JSON for the key in `request`; 401, 404, 503… in the chat envelope. */
export async function keyedRead(
  deps: KeyedReadDeps,
  request: Request,
  what: string,
  read: (principal: KeyPrincipal) => unknown | Promise<unknown>,
  clientIp: () => string | undefined = () => undefined,
): Promise<Response> {
  const requestId = newRequestId('req')
  try {
    const principal = await authenticate(deps.auth, request.headers)
    // A key's network allowlist holds for its reads too (docs/api.md "Key settings").
    checkClientIp(principal, clientIp)
    const body = await read(principal)
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', 'x-request-id': requestId } })
  } catch (e) {
    return errorResponse(chatErrorBody, asGatewayError(e), requestId, deps.log, what)
  }
}
