// The same-protocol body for an OpenAI-chat upstream. The caller's body passes through with
// unknown fields intact; only `model` (the upstream name) and, for streams, include_usage change:
// the gateway always asks for usage so that billing uses real tokens (docs/translation.md).

export function chatPassthroughBody(body: Record<string, unknown>, upstreamModel: string, stream: boolean): string {
  const out: Record<string, unknown> = { ...body, model: upstreamModel }
  if (stream) {
    const opts = body.stream_options && typeof body.stream_options === 'object' ? body.stream_options : {}
    out.stream_options = { ...opts, include_usage: true }
  }
  return JSON.stringify(out)
}
