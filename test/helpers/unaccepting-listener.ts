// A TCP listener whose accept queue is full and never drained: a connect to it gets no answer
// and waits in the kernel's SYN retries (~2 min), as a connect to a host that drops packets does.
// Python's socket module makes it (Bun's listeners accept at once); one connection fills the
// queue of listen(0).
import net from 'node:net'

export interface Unaccepting {
  port: number
  stop(): void
}

export async function unacceptingListener(): Promise<Unaccepting> {
  const py = Bun.spawn(
    [
      'python3',
      '-c',
      "import socket, time\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen(0)\nprint(s.getsockname()[1], flush=True)\ntime.sleep(3600)",
    ],
    { stdout: 'pipe', stderr: 'ignore' },
  )
  const reader = py.stdout.getReader()
  let text = ''
  while (!text.includes('\n')) {
    const { value, done } = await reader.read()
    if (done) throw new Error('python3 listener did not start')
    text += new TextDecoder().decode(value)
  }
  const port = Number(text.trim())
  const filler = net.createConnection({ port, host: '127.0.0.1' })
  await new Promise<void>((resolve, reject) => (filler.once('connect', () => resolve()), filler.once('error', reject)))
  return {
    port,
    stop: () => {
      filler.destroy()
      py.kill()
    },
  }
}
