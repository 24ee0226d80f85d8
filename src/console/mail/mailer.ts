// How console emails leave (docs/console.md "Password reset"): through SMTP_URL with nodemailer,
// or, without SMTP, as a log line for the operator, who passes the link on. Built per app from
// config; nodemailer connects only when a mail is sent.
import { createTransport } from 'nodemailer'
import type { Logger } from '../../lib/log.ts'

export interface Mail {
  to: string
  subject: string
  text: string
  /** The link the mail carries: the log path writes it for the operator. */
  link: string
}

export interface Mailer {
  /** `email`: mails are sent; `operator`: links are in the operator's log, the console says to ask them. */
  delivery: 'email' | 'operator'
  send(mail: Mail): Promise<void>
}

export function createMailer(smtp: { url: string; from: string } | undefined, log: Logger): Mailer {
  if (!smtp)
    return {
      delivery: 'operator',
      send: async (mail) =>
        log.warn('console email not sent: no SMTP_URL; pass this link to the user', {
          to: mail.to,
          subject: mail.subject,
          link: mail.link,
        }),
    }
  const transport = createTransport(smtp.url)
  return {
    delivery: 'email',
    async send(mail) {
      await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text })
    },
  }
}
