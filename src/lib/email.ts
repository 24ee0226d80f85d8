// One spelling per mailbox: emails are stored and looked up in Unicode NFKC (full-width and other
// compatibility forms folded to their plain letters), trimmed and lower-cased — the admin API,
// console sign-up, sign-in and password reset alike. Where an account is made, an address must
// also look like one and hold no invisible character (zero-width, format, control or space
// characters), so no look-alike of another address can register (docs/console.md "Sessions").

export const normalizeEmail = (email: string): string => email.normalize('NFKC').trim().toLowerCase()

/** Deliberately permissive (one @, a dot in the domain): the mailbox is the real check. */
const EMAIL = /^[^@]+@[^@]+\.[^@]+$/
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}\p{Default_Ignorable_Code_Point}]/u

/** What is wrong with a normalized address for a new account, or undefined when nothing is. */
export function emailIssue(email: string): string | undefined {
  if (INVISIBLE.test(email)) return 'must not hold spaces or invisible characters.'
  if (!EMAIL.test(email)) return 'must be an email address.'
  return undefined
}
