// One spelling per mailbox: trimmed and lowercased, nothing else changed.
import { expect, test } from 'bun:test'
import { normalizeEmail } from '../../src/lib/email.ts'

test.each([
  ['Ann@Example.COM', 'ann@example.com'],
  ['  bob@example.com\t\n', 'bob@example.com'],
  ['carol+tag@example.com', 'carol+tag@example.com'],
  ['d.o.t@EXAMPLE.com ', 'd.o.t@example.com'],
])('%p → %p', (input, expected) => expect(normalizeEmail(input)).toBe(expected))

test('normalizing twice changes nothing more', () => {
  const once = normalizeEmail('  MiXeD@Case.Org ')
  expect(normalizeEmail(once)).toBe(once)
})
