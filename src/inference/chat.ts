// POST /v1/chat/completions through the shared call pipeline.
import type { InferenceDeps } from './deps.ts'
import { chatInbound } from './inbound-chat.ts'
import { protocolCall } from './protocol-call.ts'

/** `onStream` lets the server lift its idle timeout for a long-lived event stream. */
export const chatCompletions = (deps: InferenceDeps, req: Request, onStream?: () => void): Promise<Response> =>
  protocolCall(deps, chatInbound, req, onStream)
