// The commands of README.md, docs/deploy.md and docs/providers.md. Blocks not marked
// `<!-- not run: … -->` are run, in document order in one bash session (variables carry over, as
// for a person following the page), against a real instance on PostgreSQL and Redis; marked
// blocks are checked statically (scripts exist, variables are ones Tollgate reads).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { readCatalogFile } from '../../src/catalog/file.ts'
import { requestLogs } from '../../src/db/schema/index.ts'
import { ADMIN_TOKEN, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { describeServices, freshDatabase, REDIS_URL } from '../helpers/services.ts'
import { allBlocks, blocks, ROOT, type Block } from './blocks.ts'
import { CONFIG_VARIABLES } from './env-names.ts'

const scripts = (await Bun.file(`${ROOT}package.json`).json()).scripts as Record<string, string>
const shell = allBlocks().filter((b) => b.lang === 'sh')

describe('commands in the docs, statically', () => {
  test('the README quick start is exactly two commands: the demo, then the tests', () => {
    const readme = blocks('README.md')
    const quick = readme.filter((b) => b.lang === 'sh' && b.line < readme.find((x) => x.lang === 'ts')!.line)
    expect(quick.map((b) => b.text)).toEqual(['npm i -g bun && bun install && bun run demo', 'bun run test'])
    expect(scripts.demo).toBe('bun src/demo.ts')
    expect(scripts.test).toStartWith('bun test')
    // bun reads no per-test timeout from bunfig.toml (README "Tests"): the script sets it.
    expect(scripts.test).toContain('--timeout 30000')
    expect((Bun.TOML.parse(readFileSync(`${ROOT}bunfig.toml`, 'utf8')) as any).test).not.toHaveProperty('timeout')
  })

  for (const b of shell)
    test(`${b.doc}:${b.line}: every \`bun run\` script exists and every VAR=… is one Tollgate reads`, () => {
      for (const m of b.text.matchAll(/\bbun run ([\w:-]+)/g)) expect(Object.keys(scripts)).toContain(m[1]!)
      // Variables set for a command (`NAME=value … bun …`): not shell helpers like AUTH= or
      // USER_ID=$(…).
      const assigned = [...b.text.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]+)=(?!\$\()(?=\S)/gm)].map((m) => m[1]!)
      const forTollgate = /\bbun run (start|dev|demo)\b/.test(b.text) ? assigned : []
      for (const name of forTollgate) expect(CONFIG_VARIABLES).toContain(name)
    })

  test('the README production command keeps ADMIN_TOKEN where the operator can read it (not generated inline)', () => {
    const prod = blocks('README.md').find((b) => b.text.includes('bun run start'))!
    expect(prod.text).not.toMatch(/ADMIN_TOKEN=\$\(openssl/)
    expect(prod.text).toMatch(/openssl rand -hex 24 > (\S+)[\s\S]*ADMIN_TOKEN=\$\(cat \1\)/)
  })

  test('every CATALOG_FILE a command names is a file of the repository', () => {
    const named = shell.flatMap((b) => [...b.text.matchAll(/\bCATALOG_FILE=(\.\/[^\s"]+)/g)].map((m) => m[1]!))
    expect(named).toContain('./deploy/catalog.json')
    for (const path of named) expect(existsSync(`${ROOT}${path.slice(2)}`)).toBe(true)
  })

  test('the README environment table lists exactly the variables src/config.ts reads', () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8')
    const table = readme.slice(readme.indexOf('### Environment'), readme.indexOf('### Catalog file'))
    const listed = new Set(
      [...table.matchAll(/^\| (.+?) \|/gm)].flatMap((row) => [...row[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!)),
    )
    expect([...listed].sort()).toEqual([...CONFIG_VARIABLES].sort())
  })
})

/** Runs the runnable blocks of `docs` in one bash; returns each block's output by its line. */
async function runBlocks(runnable: Block[], env: Record<string, string>, cwd: string): Promise<Map<string, string>> {
  const script = ['set -euo pipefail', ...runnable.flatMap((b) => [`printf '\\n@@%s\\n' '${b.doc}:${b.line}'`, b.text])].join('\n')
  const proc = Bun.spawn(['bash', '-c', script], { cwd, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  const parts = out.split(/^@@/m).slice(1)
  if (code !== 0) throw new Error(`block ${parts.at(-1)?.split('\n')[0]} failed (exit ${code}): ${err.trim()}`)
  return new Map(parts.map((p) => [p.slice(0, p.indexOf('\n')), p.slice(p.indexOf('\n') + 1).trim()]))
}

describeServices('commands in the docs, run against a real instance', () => {
  let gw: TestGateway
  let restore: Awaited<ReturnType<typeof freshDatabase>>
  let cwd: string
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'tg-docs-'))
    await Bun.write(join(cwd, 'catalog.json'), Bun.file(`${ROOT}deploy/catalog.json`))
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, await readCatalogFile(`${ROOT}deploy/catalog.json`), {
      CATALOG_FILE: join(cwd, 'catalog.json'),
    })
    restore = await freshDatabase()
  }, 60_000)
  afterAll(async () => {
    await gw.stop()
    await restore.drop()
    await rm(cwd, { recursive: true, force: true })
  }, 60_000)

  test('docs/deploy.md then docs/providers.md, in order: health, Redis, backup and restore, retention, admin tasks, catalog reload', async () => {
    for (const b of shell) if (b.doc !== 'README.md' && b.notRun === undefined) expect(b.text).not.toContain('localhost:8080')
    const { db } = gw.runtime.deps
    const row = (id: string, days: number) => ({
      id,
      userId: 'usr_x',
      keyId: 'key_x',
      model: 'm',
      protocol: 'chat',
      stream: false,
      status: 200,
      usageSource: 'upstream',
      latencyMs: 1,
      createdAt: new Date(Date.now() - days * 86_400_000),
    })
    await db.insert(requestLogs).values([row('req_old', 100), row('req_recent', 1)])
    const runnable = shell.filter((b) => b.doc !== 'README.md' && b.notRun === undefined)
    const out = await runBlocks(
      runnable,
      { TOLLGATE_URL: gw.listen(), ADMIN_TOKEN, DATABASE_URL: gw.runtime.deps.config.databaseUrl!, REDIS_URL, RESTORE_URL: restore.url },
      cwd,
    )
    expect(out.size).toBe(runnable.length)

    // Restore: the check printed 0 accounts whose balance differs from the ledger.
    const restoreBlock = runnable.find((b) => b.text.startsWith('pg_restore'))!
    expect(out.get(`${restoreBlock.doc}:${restoreBlock.line}`)).toBe('0')
    // Retention: the 100-day-old log is gone, the recent one kept.
    const logs = await db.select({ id: requestLogs.id }).from(requestLogs).where(sql`${requestLogs.id} in ('req_old', 'req_recent')`)
    expect(logs.map((l) => l.id)).toEqual(['req_recent'])
    // Admin tasks: alice exists with her credit, enabled again, with one key.
    const users = (await (
      await gw.request('/api/admin/users?email=alice@example.com', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    ).json()) as any
    expect(users.items).toHaveLength(1)
    expect(users.items[0]).toMatchObject({ balance: 25, disabled: false })
    // Catalog reload: the answer names the counts of deploy/catalog.json.
    const reload = [...out.entries()].find(([k]) => k.startsWith('docs/providers.md'))![1]
    const answer = JSON.parse(reload)
    expect(answer).toMatchObject({ gateways: 4, models: 4 })
    // The test instance's environment holds no provider keys: each reference is reported once.
    expect([...answer.unsetKeyVariables].sort()).toEqual(['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY'])
  }, 120_000)
})
