// Keeps the unit set (test/unit.ts) true: every entry names tests that exist, and no test in the
// set reaches a service — neither itself nor any test file it imports opens PostgreSQL or Redis,
// starts a gateway, a process, a listener or a browser, or uses the helpers that do.
import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { UNIT_TESTS } from './unit.ts'

const ROOT = resolve(import.meta.dir, '..')

/** What in a test-side file means a service: the clients, the starters, and the helpers built on them. */
const SERVICE = [
  /from '(postgres|ioredis|playwright-core)'|@electric-sql\/pglite/,
  /Bun\.(spawn|serve|listen|connect)\b|node:(net|tls|child_process)/,
  /helpers\/(services|gateway|process-gateway|instance-process|redis-server|redis-cluster|fake-upstream)\.ts/,
  /src\/(db\/client|runtime|app|index)\.ts/,
]

/** This check and the list name services and start the run; they are not tests that use them. */
const CHECKER = new Set(['test/unit.ts', 'test/unit.test.ts'])

const allTests = [...new Glob('test/**/*.test.ts').scanSync({ cwd: ROOT })]
const unitSet = allTests.filter((f) => UNIT_TESTS.some((entry) => (entry.endsWith('/') ? f.startsWith(entry) : f === entry)))

/** The test-side files `file` reaches through relative imports, itself included. */
function testSideClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen
  seen.add(file)
  const text = readFileSync(join(ROOT, file), 'utf8')
  for (const m of text.matchAll(/from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
    const target = relative(ROOT, resolve(dirname(join(ROOT, file)), m[1] ?? m[2]!))
    if (target.startsWith('test/')) testSideClosure(target, seen)
  }
  return seen
}

describe('the unit set', () => {
  test('every entry names tests that exist', () => {
    const empty = UNIT_TESTS.filter((entry) => !unitSet.some((f) => (entry.endsWith('/') ? f.startsWith(entry) : f === entry)))
    expect(empty).toEqual([])
    expect(unitSet.length).toBeGreaterThan(40)
  })

  test('no test in it reaches a service, itself or through a test file it imports', () => {
    const reached = unitSet.flatMap((f) =>
      [...testSideClosure(f)]
        .filter((dep) => !CHECKER.has(dep) && SERVICE.some((re) => re.test(readFileSync(join(ROOT, dep), 'utf8'))))
        .map((dep) => `${f} → ${dep}`),
    )
    expect(reached).toEqual([])
  })

  test('the check sees a service where there is one', () => {
    const deps = [...testSideClosure('test/console/http/limits.test.ts')]
    expect(deps.filter((d) => SERVICE.some((re) => re.test(readFileSync(join(ROOT, d), 'utf8'))))).toContain('test/helpers/gateway.ts')
  })
})
