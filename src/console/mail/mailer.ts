// How console emails leave (docs/console.md "Password reset"): through SMTP_URL with nodemailer,
// or, without SMTP, as a log line for the operator, who passes the link on. Built per app from
// config; nodemailer is loaded with the first mail and connects only when one is sent.
import type { Transporter } from 'nodemailer'
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
  let transport: Promise<Transporter> | undefined
  return {
    delivery: 'email',
    async send(mail) {
      transport ??= import('nodemailer').then((m) => m.createTransport(smtp.url))
      await (await transport).sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text })
    },
  }
}
