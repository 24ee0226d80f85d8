// Runs an agent's command once, non-interactively, in a throwaway home, and returns what it
// printed. The environment is built here whole (never inherited), so a developer's own keys,
// base URLs and agent settings cannot leak into a run; a run that outlives `timeoutMs` is killed
// and reported as such.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface AgentRun {
  code: number
  stdout: string
  stderr: string
  killed: boolean
}

export interface AgentHome {
  /** HOME of the agent, with nothing in it but what the test writes. */
  home: string
  /** The agent's working directory (inside `home`). */
  work: string
}

const homes: string[] = []

export async function agentHome(): Promise<AgentHome> {
  const home = await mkdtemp(join(tmpdir(), 'tollgate-agent-'))
  homes.push(home)
  const work = join(home, 'work')
  await mkdir(work)
  return { home, work }
}

/** Removes every home made so far (a suite's afterAll). */
export async function removeAgentHomes(): Promise<void> {
  await Promise.all(homes.splice(0).map((h) => rm(h, { recursive: true, force: true })))
}

export async function spawnAgent(cmd: string[], at: AgentHome, env: Record<string, string>, timeoutMs: number): Promise<AgentRun> {
  const proc = Bun.spawn(cmd, {
    cwd: at.work,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: at.home, LANG: 'C.UTF-8', TMPDIR: at.home, ...env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let killed = false
  const timer = setTimeout(() => {
    killed = true
    proc.kill('SIGKILL')
  }, timeoutMs)
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  clearTimeout(timer)
  return { code, stdout, stderr, killed }
}
