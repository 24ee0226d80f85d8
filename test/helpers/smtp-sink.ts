// A local SMTP server that accepts every mail and keeps it (test only): enough of RFC 5321 for
// nodemailer (EHLO without STARTTLS or AUTH, MAIL, RCPT, DATA, RSET, NOOP, QUIT). Bodies are
// decoded from quoted-printable or base64, so a test reads the text as the recipient would.
import { createServer, type Socket } from 'node:net'

export interface SunkMail {
  from: string
  to: string[]
  headers: Record<string, string>
  subject: string
  text: string
}

export interface SmtpSink {
  url: string
  mails: SunkMail[]
  /** Resolves with the `n`-th mail (1-based) to `to`, now or when it arrives. */
  nth(to: string, n: number): Promise<SunkMail>
  stop(): Promise<void>
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding !== 'quoted-printable') return body
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

function parseMail(from: string, to: string[], data: string): SunkMail {
  const split = data.indexOf('\r\n\r\n')
  const headers: Record<string, string> = {}
  for (const line of data
    .slice(0, split)
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n')) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  const text = decodeBody(data.slice(split + 4), headers['content-transfer-encoding']?.toLowerCase())
  return { from, to, headers, subject: headers.subject ?? '', text }
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: SunkMail[] = []
  const waiters: { to: string; n: number; resolve: (m: SunkMail) => void }[] = []
  const sockets = new Set<Socket>()
  const find = (to: string, n: number) => mails.filter((m) => m.to.includes(to))[n - 1]
  const deliver = (mail: SunkMail) => {
    mails.push(mail)
    for (const w of [...waiters]) {
      const found = find(w.to, w.n)
      if (found) waiters.splice(waiters.indexOf(w), 1), w.resolve(found)
    }
  }
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    serveSession(socket, deliver)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    nth: (to, n) => new Promise((resolve) => (find(to, n) ? resolve(find(to, n)!) : waiters.push({ to, n, resolve }))),
    async stop() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function serveSession(socket: Socket, deliver: (m: SunkMail) => void) {
  let buffer = ''
  let from = ''
  let to: string[] = []
  let data: string[] | undefined
  const reply = (line: string) => socket.write(`${line}\r\n`)
  const command = (line: string) => {
    const verb = line.slice(0, 4).toUpperCase()
    if (verb === 'EHLO' || verb === 'HELO') return reply('250-sink.test\r\n250 8BITMIME')
    if (verb === 'MAIL') return ((from = /<(.*)>/.exec(line)?.[1] ?? ''), (to = []), reply('250 OK'))
    if (verb === 'RCPT') return (to.push(/<(.*)>/.exec(line)?.[1] ?? ''), reply('250 OK'))
    if (verb === 'DATA') return ((data = []), reply('354 End data with <CR><LF>.<CR><LF>'))
    if (verb === 'QUIT') return (reply('221 Bye'), socket.end())
    if (verb === 'RSET' || verb === 'NOOP') return reply('250 OK')
    reply('502 Command not implemented')
  }
  socket.on('data', (chunk) => {
    buffer += chunk.toString('latin1')
    for (let at = buffer.indexOf('\r\n'); at !== -1; at = buffer.indexOf('\r\n')) {
      const line = buffer.slice(0, at)
      buffer = buffer.slice(at + 2)
      if (!data) command(line)
      else if (line !== '.') data.push(line.startsWith('..') ? line.slice(1) : line)
      else {
        deliver(parseMail(from, to, Buffer.from(data.join('\r\n'), 'latin1').toString('latin1')))
        data = undefined
        reply('250 OK: queued')
      }
    }
  })
  reply('220 sink.test ESMTP')
}
