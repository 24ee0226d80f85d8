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
  demoBanner({ url: 'http://127.0.0.1:8080', upstreamPort: 9, email: 'demo@x', balance: '7.25', secrets: secrets(s), jar: '/tmp/j' })

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
