// Runs a same-protocol tee over a recorded upstream stream (cut into small reads) and returns
// the events the client receives and the call's outcome.
import type { FrameTransform } from '../../src/core/frames.ts'
import { SseParser, type SseEvent } from '../../src/lib/sse/parse.ts'
import { fixtureJson } from './fixtures.ts'
import { type PipeEnd, pipeHarness } from './pipe.ts'

function upstreamOf(text: string, split = 41): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  let at = 0
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close()
      c.enqueue(bytes.slice(at, at + split))
      at += split
    },
  })
}

/** `sse` through `tee`; the closing event's svc member is `svc`. */
export async function runTee(sse: string, tee: FrameTransform, svc: string): Promise<{ events: SseEvent[]; outcome: PipeEnd }> {
  const pipe = pipeHarness(upstreamOf(sse).getReader(), tee, { svc })
  const text = await new Response(pipe.body).text()
  return { events: new SseParser().push(text), outcome: pipe.outcome! }
}

/** The recorded streaming fixtures of one vendor. */
export const recordedStreams = (p: 'anthropic-messages' | 'openai-responses'): string[] =>
  (fixtureJson(p, 'index.json') as { file: string; streaming: boolean }[]).filter((e) => e.streaming).map((e) => e.file)
