// A real Tollgate process (src/index.ts) for multi-instance tests: started with its own env,
// ready once it prints its "listening" line; stop() kills only this process.
import type { Subprocess } from 'bun'

const ENTRY = new URL('../../src/index.ts', import.meta.url).pathname

export interface InstanceProcess {
  url: string
  proc: Subprocess<'ignore', 'pipe', 'pipe'>
  /** Everything the process printed so far (for failure messages). */
  output(): string
  stop(): Promise<void>
}

export async function startInstance(env: Record<string, string>): Promise<InstanceProcess> {
  const proc = Bun.spawn(['bun', ENTRY], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let text = ''
  const url = new Promise<string>((resolve, reject) => {
    void (async () => {
      const dec = new TextDecoder()
      for await (const chunk of proc.stdout) {
        text += dec.decode(chunk)
        const m = /tollgate listening on (http:\S+)/.exec(text)
        if (m) resolve(m[1]!)
      }
      reject(new Error(`instance exited before listening: ${text}`))
    })()
  })
  void (async () => {
    for await (const chunk of proc.stderr) text += new TextDecoder().decode(chunk)
  })()
  return {
    url: await url,
    proc,
    output: () => text,
    async stop() {
      proc.kill('SIGKILL')
      await proc.exited
    },
  }
}
