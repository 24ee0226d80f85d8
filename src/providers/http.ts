// One upstream HTTP call with the failover contract: before the first byte, a 5xx, 429, an
// auth/not-found answer from the gateway, a timeout or a connection failure is retryable on the
// next gateway; a 400/413/422 means the request itself was refused and is not.
// Upstream bodies and hosts go to `cause` (logged), never to the message.
import { GatewayError } from '../core/errors.ts'
import type { Gateway } from '../core/gateway.ts'
import { streamingPost } from './h1-stream.ts'

export interface UpstreamCall {
  response: Response
  /** Aborts the upstream request (client gone, idle timeout). */
  abort: () => void
}

const RETRYABLE_4XX = new Set([401, 403, 404, 408, 409, 429])

type Send = (url: string, headers: Record<string, string>, body: string, signal: AbortSignal) => Promise<Response>
const viaFetch: Send = (url, headers, body, signal) => fetch(url, { method: 'POST', headers, body, signal })

/**
 * A streaming call: same contract as upstreamFetch, but the body is read off the socket only as
 * the client consumes it (backpressure; providers/h1-stream.ts).
 */
export const upstreamStream = (gw: Gateway, path: string, headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<UpstreamCall> =>
  upstreamFetch(gw, path, headers, body, signal, streamingPost)

/** `signal` (the call's client or the drain) aborts the request too; a per-call signal, never a long-lived one. */
export async function upstreamFetch(gw: Gateway, path: string, headers: Record<string, string>, body: string, signal?: AbortSignal, send: Send = viaFetch): Promise<UpstreamCall> {
  const controller = new AbortController()
  signal?.addEventListener('abort', () => controller.abort(new Error('aborted')), { once: true })
  const timer = setTimeout(() => controller.abort(new Error('timeout')), gw.timeoutMs)
  let response: Response
  try {
    response = await send(gw.baseUrl + path, headers, body, controller.signal)
  } catch (cause) {
    clearTimeout(timer)
    const timedOut = controller.signal.aborted
    throw new GatewayError(timedOut ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR', timedOut ? 'The upstream model timed out.' : 'The upstream model could not be reached.', {
      cause: { gateway: gw.id, error: String(cause) },
      retryable: true,
    })
  }
  clearTimeout(timer)
  if (response.ok) return { response, abort: () => controller.abort(new Error('aborted')) }
  const text = await response.text().catch(() => '')
  const cause = { gateway: gw.id, status: response.status, body: text.slice(0, 2000) }
  if (response.status >= 500 || RETRYABLE_4XX.has(response.status))
    throw new GatewayError('UPSTREAM_ERROR', 'The upstream model failed.', { cause, retryable: true })
  throw new GatewayError('UPSTREAM_REJECTED', `The model rejected the request parameters (status ${response.status}).`, { cause })
}

export interface UpstreamJson {
  text: string
  parsed: Record<string, any>
  /** The upstream's own request id header, when it sent one. */
  upstreamRequestId: string | undefined
}

/**
 * A complete non-streaming answer. The body read is bounded by the gateway's timeout too, and a
 * failure here is still before the client's first byte, so it stays retryable on the next route.
 */
export async function upstreamJson(gw: Gateway, path: string, headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<UpstreamJson> {
  const started = Date.now()
  const call = await upstreamFetch(gw, path, headers, body, signal)
  const timer = setTimeout(call.abort, Math.max(1, gw.timeoutMs - (Date.now() - started)))
  try {
    const text = await call.response.text()
    const parsed = JSON.parse(text)
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('answer is not a JSON object')
    return { text, parsed, upstreamRequestId: call.response.headers.get('x-request-id') ?? undefined }
  } catch (cause) {
    throw new GatewayError('UPSTREAM_ERROR', 'The upstream model sent an incomplete or unreadable answer.', { cause: { gateway: gw.id, error: String(cause) }, retryable: true })
  } finally {
    clearTimeout(timer)
  }
}
