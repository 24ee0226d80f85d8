// docs/api.md against the code. "Status and code table" is what the protocols render: each row's
// canonical code, given to each protocol's error renderer, yields the status and code/type the
// row states; the table names every canonical code the /v1 surface can answer; and its
// `x-should-retry: false` list is exactly the set clientRetryHeaders marks. "Environment" names
// every variable src/config.ts reads.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { clientRetryHeaders, type ErrorCode, GatewayError } from '../../src/core/errors.ts'
import { chatErrorBody } from '../../src/protocols/chat/error.ts'
import { messagesErrorBody } from '../../src/protocols/messages/error.ts'
import { responsesErrorBody } from '../../src/protocols/responses/error.ts'
import { ROOT } from './blocks.ts'
import { CONFIG_VARIABLES } from './env-names.ts'

const api = readFileSync(`${ROOT}docs/api.md`, 'utf8')
const section = (heading: string) => {
  const start = api.indexOf(`\n${heading}\n`)
  expect(start).toBeGreaterThan(-1)
  const rest = api.slice(start + heading.length + 2)
  return rest.slice(0, rest.search(/\n#{1,6} /) === -1 ? undefined : rest.search(/\n#{1,6} /))
}
const table = section('### Status and code table')

/** Every canonical code, read from the ErrorCode union of src/core/errors.ts. */
const ALL = [...readFileSync(`${ROOT}src/core/errors.ts`, 'utf8').matchAll(/^\s*\| '([A-Z_]+)'/gm)].map((m) => m[1]! as ErrorCode)
/** Codes only the console and admin API answer (docs/console.md "Conventions"); /v1 answers FORBIDDEN for a key's allowlists. */
const CONSOLE_ONLY = ['NOT_FOUND', 'CONFLICT', 'UNSUPPORTED_MEDIA_TYPE']

const ticks = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)
const status = (cell: string) => Number(/^\s*(\d{3})/.exec(cell)?.[1])

interface Row {
  code: ErrorCode
  chat: { status: number; code: string }
  messages: { status: number; type: string }
  responses: { status: number; type: string; code: string | null }
}

const rows: Row[] = table
  .split('\n')
  .filter((l) => l.startsWith('| ') && !l.startsWith('| condition'))
  .map((l) => {
    const [, canonical, chat, messages, responses] = l.slice(2, -2).split(' | ')
    const r = ticks(responses!)
    return {
      code: ticks(canonical!)[0] as ErrorCode,
      chat: { status: status(chat!), code: ticks(chat!)[0]! },
      messages: { status: status(messages!), type: ticks(messages!)[0]! },
      responses: { status: status(responses!), type: r[0]!, code: r[1] ?? null },
    }
  })

describe('docs/api.md "Status and code table"', () => {
  test('the table is read: one row per /v1 canonical code, every code of src/core/errors.ts covered', () => {
    expect(ALL.length).toBeGreaterThan(15)
    expect(rows.map((r) => r.code).sort()).toEqual(ALL.filter((c) => !CONSOLE_ONLY.includes(c)).sort())
  })

  test('chat renders each row as the table says', () => {
    for (const r of rows) {
      const out = chatErrorBody(new GatewayError(r.code, 'm'))
      expect({ code: r.code, status: out.status, chat: JSON.parse(out.body).error.code }).toEqual({
        code: r.code,
        status: r.chat.status,
        chat: r.chat.code,
      })
    }
  })

  test('messages renders each row as the table says', () => {
    for (const r of rows) {
      const out = messagesErrorBody(new GatewayError(r.code, 'm'))
      expect({ code: r.code, status: out.status, type: JSON.parse(out.body).error.type }).toEqual({
        code: r.code,
        status: r.messages.status,
        type: r.messages.type,
      })
    }
  })

  test('responses renders each row as the table says', () => {
    for (const r of rows) {
      const out = responsesErrorBody(new GatewayError(r.code, 'm'))
      const { type, code } = JSON.parse(out.body).error
      expect({ code: r.code, status: out.status, type, responses: code }).toEqual({
        code: r.code,
        status: r.responses.status,
        type: r.responses.type,
        responses: r.responses.code,
      })
    }
  })

  test('the x-should-retry: false list is exactly the codes clientRetryHeaders marks', () => {
    const bullet = /^- Errors a retry cannot fix[\s\S]*?(?=\n- |\n\n)/m.exec(table)?.[0] ?? ''
    const listed = ticks(bullet).filter((c) => /^[A-Z_]+$/.test(c))
    const marked = ALL.filter((c) => clientRetryHeaders(new GatewayError(c, 'm'))['x-should-retry'] === 'false')
    expect(listed.sort()).toEqual(marked.sort())
  })
})

describe('docs/api.md "Environment"', () => {
  test('names every variable src/config.ts reads (a `PREFIX_*` names a family)', () => {
    const named = ticks(section('### Environment'))
    const families = named.filter((n) => n.endsWith('_*')).map((n) => n.slice(0, -1))
    expect(CONFIG_VARIABLES.size).toBeGreaterThan(30)
    const missing = [...CONFIG_VARIABLES].filter((v) => !named.includes(v) && !families.some((f) => v.startsWith(f)))
    expect(missing).toEqual([])
  })
})
