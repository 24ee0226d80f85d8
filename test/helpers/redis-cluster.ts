// A throwaway local Redis Cluster for scale tests: `masters` masters with one replica each, on
// consecutive ports from `basePort` (test/scale/redis-cluster.test.ts takes 7000–7009), data in a
// temp dir, joined with `redis-cli --cluster create`. stop() kills exactly the servers it started
// and removes the dir.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { until } from './until.ts'

export interface LocalCluster {
  /** Seed node URLs, as REDIS_CLUSTER_NODES takes them. */
  nodes: string[]
  ports: number[]
  cli(port: number, ...args: string[]): Promise<string>
  /** The master serving `key`'s slot now, and the replica following it. */
  replicaOfKey(key: string): Promise<{ master: number; replica: number }>
  stop(): Promise<void>
}

async function run(cmd: string[]): Promise<string> {
  const p = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited])
  if (code !== 0) throw new Error(`${cmd.join(' ')} failed (${code}): ${err || out}`)
  return out
}

export async function startLocalCluster(basePort: number, masters = 3): Promise<LocalCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'tg-cluster-'))
  const ports = Array.from({ length: masters * 2 }, (_, i) => basePort + i)
  const procs: Subprocess[] = ports.map((port) =>
    Bun.spawn(
      [
        'redis-server',
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '5000',
        '--dir',
        dir,
        '--appendonly',
        'no',
        '--save',
        '',
        '--dbfilename',
        `dump-${port}.rdb`,
      ],
      { stdout: 'ignore', stderr: 'ignore' },
    ),
  )
  const cli = (port: number, ...args: string[]) => run(['redis-cli', '-p', String(port), ...args])
  /** Whether the node on `port` answers `args` with `expected` in its reply (one still starting does not). */
  const answers = (port: number, args: string[], expected: string) =>
    cli(port, ...args)
      .then((out) => out.includes(expected))
      .catch(() => false)
  const stop = async () => {
    for (const p of procs) p.kill()
    await Promise.all(procs.map((p) => p.exited))
    await rm(dir, { recursive: true, force: true })
  }
  try {
    for (const port of ports) await until(() => answers(port, ['ping'], 'PONG'), `redis on ${port}`, 20_000)
    await run(['redis-cli', '--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes'])
    for (const port of ports)
      await until(() => answers(port, ['cluster', 'info'], 'cluster_state:ok'), `cluster state ok on ${port}`, 60_000)
    // Every replica attached and in sync, so a manual failover can be coordinated.
    const inSync = async () => {
      const roles = await Promise.all(ports.map((p) => cli(p, 'info', 'replication')))
      return roles.filter((r) => r.includes('role:slave') && r.includes('master_link_status:up')).length === masters
    }
    await until(() => inSync().catch(() => false), 'replicas in sync', 60_000)
  } catch (e) {
    await stop()
    throw e
  }
  return {
    nodes: ports.slice(0, masters).map((p) => `redis://127.0.0.1:${p}`),
    ports,
    cli,
    async replicaOfKey(key) {
      const slot = Number((await cli(ports[0]!, 'cluster', 'keyslot', key)).trim())
      const lines = (await cli(ports[0]!, 'cluster', 'nodes'))
        .trim()
        .split('\n')
        .map((l) => l.split(' '))
      const master = lines.find((l) => l[2]!.includes('master') && l.slice(8).some((r) => inRange(r, slot)))!
      const replica = lines.find((l) => l[2]!.includes('slave') && l[3] === master[0])!
      return { master: portOf(master[1]!), replica: portOf(replica[1]!) }
    },
    stop,
  }
}

const portOf = (addr: string) => Number(addr.split('@')[0]!.split(':')[1])

function inRange(range: string, slot: number): boolean {
  const [a, b] = range.split('-').map(Number)
  return slot >= a! && slot <= (b ?? a!)
}
