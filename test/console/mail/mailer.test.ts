// How console emails leave (docs/console.md "Password reset"): without SMTP the link goes to the
// operator's log and the console says to ask them; with SMTP the mail reaches the server from
// SMTP_FROM, and nothing connects before the first mail.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createMailer } from '../../../src/console/mail/mailer.ts'
import { silentLogger } from '../../../src/lib/log.ts'
import { type SmtpSink, startSmtpSink } from '../../helpers/smtp-sink.ts'

const MAIL = {
  to: 'user@test.local',
  subject: 'Reset your password',
  text: 'Open https://gw.example/console/reset#token=abc',
  link: 'https://gw.example/console/reset#token=abc',
}

describe('without SMTP', () => {
  test('delivery is operator; the link, the recipient and the subject are logged', async () => {
    const lines: { msg: string; fields: unknown }[] = []
    const mailer = createMailer(undefined, { ...silentLogger, warn: (msg, fields) => void lines.push({ msg, fields }) })
    expect(mailer.delivery).toBe('operator')
    await mailer.send(MAIL)
    expect(lines).toEqual([
      {
        msg: 'console email not sent: no SMTP_URL; pass this link to the user',
        fields: { to: MAIL.to, subject: MAIL.subject, link: MAIL.link },
      },
    ])
  })
})

describe('with SMTP', () => {
  let sink: SmtpSink
  beforeAll(async () => {
    sink = await startSmtpSink()
  })
  afterAll(() => sink.stop())

  test('delivery is email; the mail reaches the server from SMTP_FROM with its subject and text', async () => {
    const mailer = createMailer({ url: sink.url, from: 'Tollgate <no-reply@gw.example>' }, silentLogger)
    expect(mailer.delivery).toBe('email')
    expect(sink.mails).toHaveLength(0)
    await mailer.send(MAIL)
    await mailer.send({ ...MAIL, subject: 'Second' })
    const first = await sink.nth(MAIL.to, 1)
    expect(first.from).toBe('no-reply@gw.example')
    expect(first.to).toEqual([MAIL.to])
    expect(first.subject).toBe(MAIL.subject)
    expect(first.text.trim()).toBe(MAIL.text)
    expect((await sink.nth(MAIL.to, 2)).subject).toBe('Second')
  })

  test('an unreachable server fails the send (the caller logs it)', async () => {
    const dead = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    const url = `smtp://127.0.0.1:${dead.port}`
    dead.stop(true)
    const mailer = createMailer({ url, from: 'x@gw.example' }, silentLogger)
    await expect(mailer.send(MAIL)).rejects.toBeInstanceOf(Error)
  })
})
