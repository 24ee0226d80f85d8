// `bun run test` without PostgreSQL/Redis (README "Tests"): the suites that can run do, the run
// passes and ends with one line naming what was unreachable and how to enable it; with CI=true
// the same absence fails the run at once. Runs a small suite in a nested `bun test`.
import { expect, test } from 'bun:test'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

async function runSuite(extra: Record<string, string>) {
  const env: Record<string, string | undefined> = {
    ...process.env,
    TEST_PG_URL: 'postgres://postgres@127.0.0.1:1/test',
    TEST_REDIS_URL: 'redis://127.0.0.1:1',
    ...extra,
  }
  if (!('CI' in extra)) delete env.CI
  delete env.TOLLGATE_TEST_SERVICES
  const proc = Bun.spawn(['bun', 'test', '--timeout', '30000', 'test/store/store-contract.test.ts'], {
    cwd: ROOT,
    env,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, text: out + err }
}

test('without the services: the in-process suites pass and one line says what was skipped and how to enable it', async () => {
  const { code, text } = await runSuite({})
  expect(code).toBe(0)
  expect(text).toContain('store contract: memory')
  expect(text).not.toContain('store contract: redis')
  const lines = text.split('\n').filter((l) => l.startsWith('tests: skipped'))
  expect(lines).toHaveLength(1)
  expect(lines[0]).toContain('TEST_PG_URL')
  expect(lines[0]).toContain('TEST_REDIS_URL')
}, 60_000)

test('under CI=true the missing services fail the run', async () => {
  const { code, text } = await runSuite({ CI: 'true' })
  expect(code).not.toBe(0)
  expect(text).toContain('tests: CI requires')
  expect(text).not.toContain('store contract: memory')
}, 60_000)
