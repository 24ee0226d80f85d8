// Console email texts (src/console/mail/messages.ts) and the mailer without SMTP
// (src/console/mail/mailer.ts): the link on a line of its own, its lifetime, what to do if the
// mail was not expected; without SMTP the mail becomes one warn line for the operator.
import { expect, test } from 'bun:test'
import { createLogger } from '../../../src/lib/log.ts'
import { createMailer } from '../../../src/console/mail/mailer.ts'
import { resetMail, verifyMail } from '../../../src/console/mail/messages.ts'

const LINK = 'https://gw.example/console/reset#token=abc'

test('the reset mail carries the link alone on its line, its 30 minutes, and says to ignore it if unexpected', () => {
  const mail = resetMail('a@b.io', LINK, 30)
  expect([mail.to, mail.subject, mail.link]).toEqual(['a@b.io', 'Reset your Tollgate password', LINK])
  expect(mail.text.split('\n')).toContain(LINK)
  expect(mail.text).toContain('for 30 minutes')
  expect(mail.text).toContain('If you did not ask for this, ignore this email')
})

test('the verification mail carries the link alone on its line and its 24 hours', () => {
  const mail = verifyMail('a@b.io', LINK, 24)
  expect(mail.subject).toBe('Confirm your email for Tollgate')
  expect(mail.text.split('\n')).toContain(LINK)
  expect(mail.text).toContain('for 24 hours')
})

test('without SMTP the mailer says operator and writes the link to the log at warn', async () => {
  const lines: string[] = []
  const mailer = createMailer(
    undefined,
    createLogger('info', (l) => lines.push(l)),
  )
  expect(mailer.delivery).toBe('operator')
  await mailer.send(resetMail('a@b.io', LINK, 30))
  expect(lines.map((l) => JSON.parse(l))).toEqual([
    expect.objectContaining({ level: 'warn', to: 'a@b.io', subject: 'Reset your Tollgate password', link: LINK }),
  ])
})

test('with SMTP the mailer says email', () => {
  const mailer = createMailer(
    { url: 'smtp://127.0.0.1:9', from: 'no-reply@gw.example' },
    createLogger('error', () => {}),
  )
  expect(mailer.delivery).toBe('email')
})
