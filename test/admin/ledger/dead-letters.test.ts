// Ledger health for the operator (docs/operators.md "Ledger health"): the outbox backlog and the
// writer's lag; dead letters listed and inspected, retried through the writer's statement (billed
// once, the letter gone) or discarded with a note, both audited.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { insertDeadLetter } from '../../../src/billing/dead-letters.ts'
import { ledgerDeadLetters, ledgerEntries, requestLogs } from '../../../src/db/schema/index.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { usageRecord } from '../../helpers/records.ts'

const token = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }

for (const backends of ALL_BACKENDS) {
  describe(`ledger health on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    beforeAll(async () => {
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]))
    }, 30_000)
    afterAll(() => gw.stop())

    const send = async (method: string, path: string, body?: unknown) => {
      const res = await gw.request(path, { method, headers: token, body: body === undefined ? undefined : JSON.stringify(body) })
      return { status: res.status, body: (await res.json()) as any }
    }
    const letter = async (requestId: string, raw: string) => {
      await insertDeadLetter(gw.runtime.deps.db, raw, requestId, '22P02 invalid input')
      const [row] = await gw.runtime.deps.db.select().from(ledgerDeadLetters).where(eq(ledgerDeadLetters.requestId, requestId))
      return row!.id
    }

    test('health reports the outbox backlog, the writer lag and the dead letters', async () => {
      await gw.settled()
      const { status, body } = await send('GET', '/api/admin/ledger/health')
      expect(status).toBe(200)
      expect(body.outbox).toEqual({ backlog: 0, writerLagMs: 0 })
      const id = await letter(`dl_h_${crypto.randomUUID()}`, '{"not":"a record"')
      const after = (await send('GET', '/api/admin/ledger/health')).body
      expect(after.deadLetters.count).toBeGreaterThanOrEqual(1)
      expect((await send('GET', `/api/admin/ledger/dead-letters/${id}`)).body).toMatchObject({
        id,
        raw: '{"not":"a record"',
        error: '22P02 invalid input',
      })
      const listed = (await send('GET', '/api/admin/ledger/dead-letters?limit=100')).body
      expect(listed.items.map((d: any) => d.id)).toContain(id)
    })

    test('a retry writes the record once (billed, letter gone); a record refused again stays with the new error (409)', async () => {
      const u = await gw.user(1)
      const requestId = `req_dl_${crypto.randomUUID()}`
      const id = await letter(requestId, JSON.stringify(usageRecord({ requestId, userId: u.userId, keyId: u.keyId, cost: '1234' })))
      const res = await send('POST', `/api/admin/ledger/dead-letters/${id}/retry`)
      expect(res).toEqual({ status: 200, body: { id, retried: true, written: 1 } })
      // Billed once: the call's log names the usage entry that covers it (docs/api.md "Ledger").
      const db = gw.runtime.deps.db
      const [logged] = await db.select().from(requestLogs).where(eq(requestLogs.id, requestId))
      expect(logged!.costMicros).toBe(1234n)
      const entries = await db.select().from(ledgerEntries).where(eq(ledgerEntries.id, logged!.ledgerEntryId!))
      expect(entries.map((e) => e.amountMicros)).toEqual([-1234n])
      expect((await send('GET', `/api/admin/ledger/dead-letters/${id}`)).status).toBe(404)
      const [audit] = (await send('GET', `/api/admin/audit?target=${id}`)).body.items
      expect(audit).toMatchObject({ action: 'dead_letter.retry', after: { written: 1 } })
      const broken = await letter(`dl_b_${crypto.randomUUID()}`, '{"requestId": 5, "at": "soon"}')
      const again = await send('POST', `/api/admin/ledger/dead-letters/${broken}/retry`)
      expect(again.status).toBe(409)
      expect((await send('GET', `/api/admin/ledger/dead-letters/${broken}`)).body.error).not.toBe('22P02 invalid input')
    })

    test('discard needs a note (422 otherwise), removes the letter and is audited with what it held', async () => {
      const id = await letter(`dl_d_${crypto.randomUUID()}`, '{"junk":true}')
      expect((await send('POST', `/api/admin/ledger/dead-letters/${id}/discard`, {})).status).toBe(422)
      expect((await send('GET', `/api/admin/ledger/dead-letters/${id}`)).status).toBe(200)
      const res = await send('POST', `/api/admin/ledger/dead-letters/${id}/discard`, { note: 'test junk, never billed' })
      expect(res.body).toEqual({ id, discarded: true })
      const [audit] = (await send('GET', `/api/admin/audit?target=${id}`)).body.items
      expect(audit).toMatchObject({ action: 'dead_letter.discard', note: 'test junk, never billed', before: { raw: '{"junk":true}' } })
      expect((await send('POST', `/api/admin/ledger/dead-letters/${id}/discard`, { note: 'again' })).status).toBe(404)
    })
  })
}
