// Connection-level upstream faults that an HTTP server cannot produce: a TCP listener that
// accepts, reads the request, and then cuts the connection without an HTTP answer (`reset`) or
// after bytes that are not HTTP (`garbage`).

export interface BrokenUpstream {
  url: string
  /** Connections that sent a request. */
  requests: number
  stop(): void
}

export function startBrokenUpstream(mode: 'reset' | 'garbage'): BrokenUpstream {
  const state: BrokenUpstream = { url: '', requests: 0, stop: () => listener.stop(true) }
  const listener = Bun.listen({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      data(socket) {
        state.requests++
        if (mode === 'garbage') socket.write('SSH-2.0-not-http\r\n\r\n')
        socket.terminate()
      },
    },
  })
  state.url = `http://127.0.0.1:${listener.port}`
  return state
}
