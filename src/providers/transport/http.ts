// One upstream HTTP call with the failover contract: before the first byte, a 5xx, 429, an
// auth/not-found answer from the gateway, a timeout or a connection failure is retryable (the
// retry policy decides whether on the same route or the next, docs/failover.md); a 400/413/422
// means the request itself was refused and is not — a "context too long" answer among them is
// CONTEXT_LENGTH_EXCEEDED. Upstream bodies and hosts go to `cause` (logged), never to the message.
// An attempt aborted by its call (client gone, drain: a CallEnded reason) rejects with that
// CallEnded, never with an upstream failure (docs/failover.md "Who ended the call").
import { upstreamUrl, withGatewayHeaders } from './gateway-extras.ts'
import { endedByCaller } from '../../core/call-end.ts'
import { isContextLengthAnswer } from '../../core/context-window.ts'
import { GatewayError } from '../../core/errors.ts'
import type { Gateway, OutgoingRequest } from '../../core/gateway.ts'
import { retryAfterMs } from '../../lib/retry-after.ts'
import type { BodyReader } from './body-reader.ts'
import { streamingPost } from './h1-stream.ts'

export interface UpstreamCall {
  response: Response
  /** Aborts the upstream request for a deadline of the attempt's own (idle, first token). */
  abort: () => void
  /** The attempt's signal: its reason says who aborted it (a CallEnded: the call itself). */
  signal: AbortSignal
}

/** A streaming call whose answer began: `response` for its status and headers, `body` to read it. */
export interface UpstreamStream extends UpstreamCall {
  body: BodyReader
}

const RETRYABLE_4XX = new Set([401, 403, 404, 408, 409, 429])

/** The reason this module's own deadline aborts an attempt with (one object: nothing built per call). */
const TIMED_OUT = new Error('upstream deadline')

/** Why an attempt's request failed: the call's own end, the attempt's deadline, or the network. */
function attemptFailure(gw: Gateway, signal: AbortSignal, cause: unknown): Error {
  if (endedByCaller(signal.reason)) return signal.reason
  const timedOut = signal.aborted && signal.reason === TIMED_OUT
  return new GatewayError(
    timedOut ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR',
    timedOut ? 'The upstream model timed out.' : 'The upstream model could not be reached.',
    { cause: { gateway: gw.id, error: String(cause) }, retryable: true, upstream: { kind: timedOut ? 'timeout' : 'connect' } },
  )
}

/**
 * The request with its gateway's auth (docs/providers.md "Cloud auth"): signed over its final
 * URL, headers and body, or carrying the gateway's token. A token or signature that could not be
 * had is this route's upstream failure, classed by the auth's status; its detail goes to the log.
 */
async function authorized(gw: Gateway, req: OutgoingRequest): Promise<OutgoingRequest> {
  if (!gw.auth) return req
  const result = await gw.auth.authorize(req)
  if (result.ok) return { ...req, headers: result.headers }
  throw new GatewayError('UPSTREAM_ERROR', 'The upstream model failed.', {
    cause: { gateway: gw.id, auth: gw.auth.type, error: result.detail },
    retryable: true,
    upstream: { kind: 'status', status: result.status },
  })
}

type Send = (url: string, headers: Record<string, string>, body: string, signal: AbortSignal) => Promise<Response>
const viaFetch: Send = (url, headers, body, signal) => fetch(url, { method: 'POST', headers, body, signal })

export interface FetchOptions {
  /** Bounds the wait for the answer's headers; the gateway's timeoutMs by default. */
  timeoutMs?: number
  /**
   * The attempt's controller, when the call aborts it too (client gone, drain: CallAbort.attempt,
   * a per-call controller, never a long-lived one). A fresh one otherwise.
   */
  controller?: AbortController
  send?: Send
}

/** How a streaming body is read: Bun's fetch (reads ahead of a slow client), or `paced`. */
export type StreamClient = 'fetch' | 'paced'

/**
 * A streaming call: same contract as upstreamFetch. `paced` reads the body off the socket only
 * as the client consumes it (backpressure, providers/transport/h1-stream.ts; docs/drain.md).
 */
export async function upstreamStream(
  gw: Gateway,
  path: string,
  headers: Record<string, string>,
  body: string,
  client: StreamClient,
  opts: FetchOptions = {},
): Promise<UpstreamStream> {
  const call = await upstreamFetch(gw, path, headers, body, { ...opts, send: client === 'paced' ? streamingPost : viaFetch })
  return { ...call, body: call.response.body!.getReader() }
}

export async function upstreamFetch(
  gw: Gateway,
  path: string,
  headers: Record<string, string>,
  body: string,
  opts: FetchOptions = {},
): Promise<UpstreamCall> {
  const sent = await openCall(gw, path, headers, body, opts)
  clearTimeout(sent.timer)
  return sent.call
}

/** The request up to the answer's headers; its timer still runs (upstreamJson bounds the body read by it too). */
async function openCall(
  gw: Gateway,
  path: string,
  headers: Record<string, string>,
  body: string,
  opts: FetchOptions,
): Promise<{ call: UpstreamCall; timer: Timer }> {
  const { timeoutMs = gw.timeoutMs, controller = new AbortController(), send = viaFetch } = opts
  const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs)
  let response: Response
  try {
    const plain = { url: upstreamUrl(gw, path), headers: withGatewayHeaders(gw, headers), body }
    // A gateway without cloud auth sends at once: no promise and turn of the event loop per call.
    const request = gw.auth ? await authorized(gw, plain) : plain
    if (controller.signal.aborted) throw controller.signal.reason
    response = await send(request.url, request.headers, body, controller.signal)
  } catch (cause) {
    clearTimeout(timer)
    if (cause instanceof GatewayError && !controller.signal.aborted) throw cause
    throw attemptFailure(gw, controller.signal, cause)
  }
  if (response.ok) return { call: { response, abort: () => controller.abort(TIMED_OUT), signal: controller.signal }, timer }
  clearTimeout(timer)
  const text = await response.text().catch(() => '')
  const status = response.status
  const cause = { gateway: gw.id, status, body: text.slice(0, 2000) }
  const upstream = { kind: 'status' as const, status, retryAfterMs: retryAfterMs(response.headers, Date.now()) }
  if (status >= 500 || RETRYABLE_4XX.has(status))
    throw new GatewayError('UPSTREAM_ERROR', 'The upstream model failed.', { cause, retryable: true, upstream })
  if (isContextLengthAnswer(status, text))
    throw new GatewayError('CONTEXT_LENGTH_EXCEEDED', 'The request does not fit the model’s context window.', { cause, upstream })
  throw new GatewayError('UPSTREAM_REJECTED', `The model rejected the request parameters (status ${status}).`, { cause, upstream })
}

export interface UpstreamJson {
  text: string
  parsed: Record<string, unknown>
  /** The upstream's own request id header, when it sent one. */
  upstreamRequestId: string | undefined
}

/**
 * A complete non-streaming answer, read by `read` (JSON.parse; embeddings keep their vectors as
 * text, protocols/embeddings/passthrough.ts). The body read is bounded by the same deadline as the headers
 * (the gateway's timeout from the start), and a failure here is still before the client's first
 * byte, so it stays retryable on the next route.
 */
export async function upstreamJson(
  gw: Gateway,
  path: string,
  headers: Record<string, string>,
  body: string,
  controller?: AbortController,
  read: (text: string) => unknown = JSON.parse,
): Promise<UpstreamJson> {
  const { call, timer } = await openCall(gw, path, headers, body, { controller })
  try {
    const text = await call.response.text()
    const parsed = read(text)
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('answer is not a JSON object')
    return { text, parsed: parsed as Record<string, unknown>, upstreamRequestId: call.response.headers.get('x-request-id') ?? undefined }
  } catch (cause) {
    if (endedByCaller(controller?.signal.reason)) throw controller!.signal.reason
    throw new GatewayError('UPSTREAM_ERROR', 'The upstream model sent an incomplete or unreadable answer.', {
      cause: { gateway: gw.id, error: String(cause) },
      retryable: true,
      upstream: { kind: 'body' },
    })
  } finally {
    clearTimeout(timer)
  }
}
