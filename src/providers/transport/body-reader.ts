// A response body read one chunk at a time: what the stream pipe (src/inference/stream.ts) and
// the first-token wait (src/routing/first-token.ts) need of an upstream answer. A ReadableStream's
// reader is one; the first-token replay is another, with no stream in between.

export type BodyChunk = { done: false; value: Uint8Array } | { done: true; value?: undefined }

export interface BodyReader {
  read(): Promise<BodyChunk>
  cancel(reason?: unknown): Promise<void>
}
