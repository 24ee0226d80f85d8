// Installs a pinned agent release from the npm registry on first use, outside the project's
// dependencies: `npm install --prefix <cache>/<pkg>@<version>` into a temporary folder renamed
// into place once the command answers with its version, so a cut-short install is never reused.
// The cache is TOLLGATE_AGENTS_CACHE, or ~/.cache/tollgate/agents.
import { existsSync } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { AgentRelease } from './versions.ts'

export const AGENTS_CACHE = process.env.TOLLGATE_AGENTS_CACHE || join(homedir(), '.cache', 'tollgate', 'agents')

const folderOf = (a: AgentRelease) => join(AGENTS_CACHE, `${a.pkg.replace('/', '+')}@${a.version}`)
const binOf = (folder: string, a: AgentRelease) => join(folder, 'node_modules', '.bin', a.bin)

async function run(cmd: string[]): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn(cmd, { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, out: `${out}${err}` }
}

/** The release's version line, or why the command does not answer. */
async function versionOf(bin: string, a: AgentRelease): Promise<string | undefined> {
  if (!existsSync(bin)) return `${bin} is missing`
  const { code, out } = await run([bin, '--version'])
  return code === 0 && out.includes(a.version) ? undefined : `${a.bin} --version gave exit ${code}: ${out.trim().slice(0, 300)}`
}

/** Path of the release's command, installing it first when the cache does not hold it. */
export async function installAgent(a: AgentRelease): Promise<string> {
  const folder = folderOf(a)
  if ((await versionOf(binOf(folder, a), a)) === undefined) return binOf(folder, a)
  const tmp = `${folder}.tmp-${process.pid}`
  await rm(tmp, { recursive: true, force: true })
  await mkdir(tmp, { recursive: true })
  const npm = await run(['npm', 'install', '--prefix', tmp, '--no-save', '--no-audit', '--no-fund', `${a.pkg}@${a.version}`])
  if (npm.code !== 0) throw new Error(`npm install ${a.pkg}@${a.version} failed (exit ${npm.code}): ${npm.out.trim().slice(-600)}`)
  const broken = await versionOf(binOf(tmp, a), a)
  if (broken) throw new Error(`${a.pkg}@${a.version} installed but does not run: ${broken}`)
  await rm(folder, { recursive: true, force: true })
  await rename(tmp, folder)
  return binOf(folder, a)
}
