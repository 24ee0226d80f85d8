// Email addresses (src/lib/email.ts): one spelling per mailbox (NFKC, trimmed, lower-cased), and
// no invisible character or space in an address an account is made with.
import { describe, expect, test } from 'bun:test'
import { emailIssue, normalizeEmail } from '../../src/lib/email.ts'

describe('email addresses', () => {
  test.each([
    ['Ann@Example.COM', 'ann@example.com'],
    ['  bob@example.com\t\n', 'bob@example.com'],
    ['carol+tag@example.com', 'carol+tag@example.com'],
    ['d.o.t@EXAMPLE.com ', 'd.o.t@example.com'],
  ])('%p → %p', (input, expected) => expect(normalizeEmail(input)).toBe(expected))

  test('normalizing twice changes nothing more', () => {
    const once = normalizeEmail('  MiXeD@Ｃase.Org ')
    expect(normalizeEmail(once)).toBe(once)
  })

  test('compatibility forms, case and surrounding space fold to one spelling', () => {
    expect(normalizeEmail('  Dave@X.Test ')).toBe('dave@x.test')
    expect(normalizeEmail('ｄａｖｅ＠ｘ.ｔｅｓｔ')).toBe('dave@x.test')
    // A precomposed and a decomposed é are one address.
    expect(normalizeEmail('jose\u0301@x.test')).toBe(normalizeEmail('jos\u00e9@x.test'))
  })

  test.each([
    ['zero-width space', 'dave@x.test\u200b'],
    ['zero-width joiner inside', 'da\u200dve@x.test'],
    ['soft hyphen', 'da\u00adve@x.test'],
    ['byte order mark inside', 'da\ufeffve@x.test'],
    ['right-to-left override', 'dave\u202e@x.test'],
    ['word joiner', 'dave@x\u2060.test'],
    ['a control character', 'dave\u0007@x.test'],
    ['an inner space', 'da ve@x.test'],
    ['a no-break space', 'dave\u00a0@x.test'],
    ['Hangul filler', 'dave\u3164@x.test'],
  ])('%s: refused', (_, raw) => {
    expect(emailIssue(normalizeEmail(raw))).toBe('must not hold spaces or invisible characters.')
  })

  test('a plain address passes; one without @ or a dotted domain does not', () => {
    expect(emailIssue('dave@x.test')).toBeUndefined()
    expect(emailIssue('josé@exämple.test')).toBeUndefined()
    expect(emailIssue('dave.x.test')).toBe('must be an email address.')
    expect(emailIssue('dave@localhost')).toBe('must be an email address.')
  })
})
