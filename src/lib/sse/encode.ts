// SSE framing, the last step of every outbound stream (STYLE 7).

const encoder = new TextEncoder()

export const sseData = (data: string): Uint8Array => encoder.encode(`data: ${data}\n\n`)

export const sseEvent = (event: string, data: string): Uint8Array => encoder.encode(`event: ${event}\ndata: ${data}\n\n`)

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const
