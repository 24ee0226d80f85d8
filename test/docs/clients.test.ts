// docs/clients.md against the agents suite: the versions it names are the ones
// test/agents/versions.ts pins, the setups it gives are the ones the suite runs (every Claude
// Code variable it exports and every Codex key it writes is one the suite sets), `bun run
// test:agents` names every agent test file, and the agents are no dependency of the project.
import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import { readFileSync } from 'node:fs'
import { claudeEnv } from '../agents/claude-code.ts'
import { codexConfig } from '../agents/codex.ts'
import { CLAUDE_CODE, CODEX } from '../agents/versions.ts'
import { blocks, ROOT } from './blocks.ts'

const doc = readFileSync(`${ROOT}docs/clients.md`, 'utf8')
const pkg = await Bun.file(`${ROOT}package.json`).json()

describe('docs/clients.md', () => {
  test('names the pinned agent releases, and the README links it', () => {
    for (const a of [CLAUDE_CODE, CODEX]) expect(doc).toContain(`\`${a.pkg}@${a.version}\``)
    expect(readFileSync(`${ROOT}README.md`, 'utf8')).toContain('(docs/clients.md)')
  })

  test('every variable its Claude Code setup exports is one the suite sets', () => {
    const sh = blocks('docs/clients.md').find((b) => b.lang === 'sh' && b.text.includes('claude -p'))!
    const exported = [...sh.text.matchAll(/\b([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]!)
    expect(exported).toContain('ANTHROPIC_BASE_URL')
    const home = { home: '/h', work: '/h/work' }
    for (const name of exported) expect(Object.keys(claudeEnv('http://x', 'k', 'm', home))).toContain(name)
  })

  test('its Codex config has the keys and provider the suite writes', () => {
    const toml = blocks('docs/clients.md').find((b) => b.lang === 'toml')!
    const documented = Bun.TOML.parse(toml.text) as Record<string, any>
    const tested = Bun.TOML.parse(codexConfig('http://127.0.0.1:8080', 'acme/chat-1')) as Record<string, any>
    for (const key of Object.keys(documented)) expect(Object.keys(tested)).toContain(key)
    const provider = documented.model_providers.tollgate
    expect(provider).toMatchObject({ base_url: 'http://127.0.0.1:8080/v1', wire_api: tested.model_providers.tollgate.wire_api })
    for (const key of Object.keys(provider)) expect(Object.keys(tested.model_providers.tollgate)).toContain(key)
  })
})

describe('the agents suite', () => {
  test('`bun run test:agents` names every agent test file; `bun run test` picks none up', () => {
    const files = [...new Glob('test/agents/*.ts').scanSync({ cwd: ROOT })].sort()
    const agentTests = files.filter((f) => f.endsWith('.agent.ts'))
    expect(agentTests.length).toBeGreaterThanOrEqual(2)
    for (const f of agentTests) expect(pkg.scripts['test:agents']).toContain(`./${f}`)
    // bun test's own file patterns (.test, _test, .spec, _spec): none may match in test/agents.
    expect(files.filter((f) => /(\.|_)(test|spec)\.[jt]sx?$/.test(f))).toEqual([])
  })

  test('the agents are not dependencies of the project', () => {
    const deps = { ...pkg.dependencies, ...pkg.devDependencies }
    for (const a of [CLAUDE_CODE, CODEX]) expect(Object.keys(deps)).not.toContain(a.pkg)
    expect(readFileSync(`${ROOT}bun.lock`, 'utf8')).not.toContain(`"${CODEX.pkg}"`)
    expect(readFileSync(`${ROOT}bun.lock`, 'utf8')).not.toContain(`"${CLAUDE_CODE.pkg}"`)
  })
})
