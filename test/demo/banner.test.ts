// What `bun run demo` prints (src/demo/banner.ts): the console's address, the balance, and for
// the key and the password whether they are new, the last run's, or replaced.
import { expect, test } from 'bun:test'
import { demoBanner } from '../../src/demo/banner.ts'
import type { DemoSecrets } from '../../src/demo/credentials.ts'

const secrets = (s: Partial<DemoSecrets>): DemoSecrets => ({
  key: 'sk-k',
  password: 'pw',
  keyState: 'new',
  passwordState: 'new',
  file: './data/demo.json',
  ...s,
})
const banner = (s: Partial<DemoSecrets>) =>
  demoBanner({
    url: 'http://127.0.0.1:8080',
    upstreamPort: 9,
    email: 'demo@x',
    balance: '7.25',
    secrets: secrets(s),
    jar: '/tmp/j',
    adminGrant: 'bun run admin:grant demo@x',
  })

test('the console address, the sign-in and the real balance', () => {
  const text = banner({})
  expect(text).toContain('Console: http://127.0.0.1:8080/console\n')
  expect(text).toContain('Sign in as demo@x with password pw (new, kept in ./data/demo.json for the next run).')
  expect(text).toContain('Demo user demo@x has $7.25 of credit.')
})

test.each([
  ['new', undefined, 'new, shown once'],
  ['new', './data/demo.json', 'new, kept in ./data/demo.json for the next run'],
  ['kept', './data/demo.json', 'the same as the last run, kept in ./data/demo.json'],
  ['rotated', './data/demo.json', 'rotated: the one kept in ./data/demo.json no longer worked'],
] as const)('a %s key kept in %s is told as "%s"', (keyState, file, told) => {
  expect(banner({ keyState, file })).toContain(`Demo API key (${told}):\n\n  sk-k\n`)
})

test('the playground: its models, the operator pages and how to become their admin', () => {
  const text = banner({})
  for (const m of ['demo/echo-1', 'demo/chat', 'demo/embed', 'demo/flaky']) expect(text).toContain(`  ${m} `)
  expect(text).toContain('Operator pages (routes and breakers, users, reports, ledger): http://127.0.0.1:8080/console/admin\n')
  expect(text).toContain('\n  bun run admin:grant demo@x\n')
  // The grant runs with the demo stopped: the embedded database is held by one process.
  expect(text).toContain('stop this demo (Ctrl-C')
  const memory = demoBanner({
    url: 'http://h',
    upstreamPort: 9,
    email: 'e',
    balance: '1.00',
    secrets: secrets({}),
    jar: '/j',
    adminGrant: undefined,
  })
  expect(memory).toContain('The database is in memory')
  expect(memory).not.toContain('bun run admin:grant e')
})
