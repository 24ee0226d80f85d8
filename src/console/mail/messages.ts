// The text of console emails: plain text, the link on a line of its own, what to do if the mail
// was not expected. Pure; mailer.ts sends them.
import type { Mail } from './mailer.ts'

export function resetMail(to: string, link: string, ttlMinutes: number): Mail {
  return {
    to,
    link,
    subject: 'Reset your Tollgate password',
    text: [
      'Someone (hopefully you) asked to reset the password of your Tollgate account.',
      '',
      `Choose a new password here (the link works once, for ${ttlMinutes} minutes):`,
      '',
      link,
      '',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  }
}

export function verifyMail(to: string, link: string, ttlHours: number): Mail {
  return {
    to,
    link,
    subject: 'Confirm your email for Tollgate',
    text: [
      'Confirm that this is your email address to finish creating your Tollgate account.',
      '',
      `Open this link (it works once, for ${ttlHours} hours):`,
      '',
      link,
      '',
      'If you did not sign up, ignore this email: no account is used without the confirmation.',
    ].join('\n'),
  }
}
