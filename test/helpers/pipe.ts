// The stream pipe (src/inference/stream.ts) on its own, for tests of tees and encoders: a call
// lifecycle of its own, the upstream attempt's signal (aborted when the call ends), and what the
// pipe reported when the call ended.
import type { EndCause } from '../../src/core/call-end.ts'
import type { FrameTransform } from '../../src/core/frames.ts'
import { CallLife } from '../../src/inference/call-life.ts'
import { Cut } from '../../src/inference/inflight.ts'
import { pipeStream, type StreamTally } from '../../src/inference/stream.ts'
import type { BodyReader } from '../../src/providers/transport/body-reader.ts'
import type { EventSource } from '../../src/providers/types.ts'

export interface PipeEnd extends StreamTally {
  end: EndCause['kind']
  cause: EndCause
  /** The usage reported (final or not). */
  usage: StreamTally['reported'] extends infer R ? (R extends { usage: infer U } ? U : never) | undefined : never
  error: EndCause extends infer C ? (C extends { error: infer E } ? E : never) | undefined : never
}

export function pipeHarness(
  reader: BodyReader,
  t: FrameTransform,
  o: { svc: string; idleTimeoutMs?: number; clientIdleMs?: number; events?: EventSource },
) {
  const client = new AbortController()
  const drain = new Cut()
  const life = new CallLife(client.signal, drain)
  const upstream = life.attempt().signal
  let ended: PipeEnd | undefined
  const body = pipeStream(reader, t, {
    life,
    idleTimeoutMs: o.idleTimeoutMs ?? 5_000,
    clientIdleMs: o.clientIdleMs,
    events: o.events,
    finish: (cause, tally) => {
      const error = cause.kind === 'upstream_failed' || cause.kind === 'refused' ? cause.error : undefined
      ended = { ...tally, end: cause.kind, cause, usage: tally.reported?.usage, error }
      return o.svc
    },
  })
  return {
    body,
    life,
    drain,
    client,
    /** The upstream attempt's signal: aborted (with a CallEnded reason) when the call ends. */
    upstream,
    get outcome(): PipeEnd | undefined {
      return ended
    },
  }
}
