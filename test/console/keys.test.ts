// The user's API keys (docs/console.md "API keys"): the secret shown once and only its hash stored;
// the list with prefix, status, last use and spend vs limit, in keyset pages; rpm within the
// operator's quota; revocation and expiry refused on /v1.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { applyMovement } from '../../src/billing/accounts.ts'
import { apiKeys } from '../../src/db/schema/index.ts'
import { ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { CONSOLE_ENV, json, signUp, type SignedIn } from './helpers.ts'

for (const backends of ALL_BACKENDS) {
  describe(`console keys on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let up: FakeUpstream
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]), { ...CONSOLE_ENV, DEFAULT_RPM: '600' })
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    const chat = (key: string) => gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(key), body: chatBody() })
    const fund = (u: SignedIn, micros: bigint) =>
      applyMovement(gw.runtime.deps.db, gw.runtime.deps.store, {
        userId: u.id,
        amountMicros: micros,
        kind: 'adjustment',
        method: 'test',
        reference: `fund:${u.id}:${micros}`,
      })

    test('create: 201 with the secret once; only its SHA-256 and prefix are stored; the list never shows it', async () => {
      const u = await signUp(gw)
      const res = await u.post('/api/keys', { name: 'ci', limit: 2.5, rpm: 30, serviceMode: 'performance' })
      expect(res.status).toBe(201)
      const key = await json(res)
      expect(key.key).toMatch(/^sk-[0-9A-Za-z]{40}$/)
      expect(key).toMatchObject({
        name: 'ci',
        prefix: key.key.slice(0, 10),
        status: 'active',
        limit: 2.5,
        spent: 0,
        remaining: 2.5,
        rpm: 30,
        serviceMode: 'performance',
        expiresAt: null,
        lastUsedAt: null,
        revokedAt: null,
      })
      const [row] = await gw.runtime.deps.db.select().from(apiKeys).where(eq(apiKeys.id, key.id))
      expect(row!.keyHash).toBe(new Bun.CryptoHasher('sha256').update(key.key).digest('hex'))
      expect(JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(key.key)
      const list = await json(u.get('/api/keys'))
      expect(JSON.stringify(list)).not.toContain(key.key)
      expect(list).toEqual({ items: [{ ...key, key: undefined }].map(({ key: _, ...v }) => v), nextCursor: null })
    })

    test('a new key works on /v1; the list then shows last use and spend against the limit', async () => {
      const u = await signUp(gw)
      const created = await json(u.post('/api/keys', { name: 'app', limit: 1 }))
      // No credit yet: 402 — the key itself is valid.
      expect((await chat(created.key)).status).toBe(402)
      await fund(u, 5_000_000n)
      expect((await chat(created.key)).status).toBe(200)
      await gw.settled()
      const [item] = (await json(u.get('/api/keys'))).items
      expect(item.spent).toBe(0.000221)
      expect(item.remaining).toBe(0.999779)
      expect(Date.parse(item.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000)
      expect(item.rpm).toBe(600)
    })

    test('revoke: 200 with status revoked, refused on /v1 at once, idempotent; another user gets 404', async () => {
      const u = await signUp(gw)
      await fund(u, 1_000_000n)
      const key = await json(u.post('/api/keys', {}))
      expect((await chat(key.key)).status).toBe(200)
      const other = await signUp(gw)
      const foreign = await other.del(`/api/keys/${key.id}`)
      expect(foreign.status).toBe(404)
      expect((await json(foreign)).error.code).toBe('NOT_FOUND')
      expect((await chat(key.key)).status).toBe(200)
      const revoked = await u.del(`/api/keys/${key.id}`)
      expect(revoked.status).toBe(200)
      const view = await json(revoked)
      expect(view).toMatchObject({ id: key.id, status: 'revoked' })
      const refused = await chat(key.key)
      expect(refused.status).toBe(401)
      expect((await json(refused)).error.code).toBe('UNAUTHORIZED')
      const again = await json(u.del(`/api/keys/${key.id}`))
      expect(again.revokedAt).toBe(view.revokedAt)
      expect((await u.del('/api/keys/key_doesnotexist')).status).toBe(404)
    })

    test('expiry: an expiring key is active until then and refused after; expired keys list as expired', async () => {
      const u = await signUp(gw)
      await fund(u, 1_000_000n)
      const key = await json(u.post('/api/keys', { expiresAt: new Date(Date.now() + 3_600_000).toISOString() }))
      expect(key.status).toBe('active')
      expect((await chat(key.key)).status).toBe(200)
      await gw.runtime.deps.db
        .update(apiKeys)
        .set({ expiresAt: new Date(Date.now() - 1_000) })
        .where(eq(apiKeys.id, key.id))
      gw.runtime.deps.auth.invalidate(key.id)
      expect((await chat(key.key)).status).toBe(401)
      expect((await json(u.get('/api/keys'))).items[0].status).toBe('expired')
    })

    test('refused inputs: a past expiry, rpm above the operator quota (400); bad types (422); unknown service mode', async () => {
      const u = await signUp(gw)
      const past = await u.post('/api/keys', { expiresAt: '2020-01-01T00:00:00Z' })
      expect(past.status).toBe(400)
      expect((await json(past)).error.code).toBe('BAD_REQUEST')
      const greedy = await u.post('/api/keys', { rpm: 601 })
      expect(greedy.status).toBe(400)
      expect((await json(greedy)).error.message).toContain('600')
      for (const body of [
        { limit: -1 },
        { limit: 'ten' },
        { rpm: 0 },
        { rpm: 1.5 },
        { expiresAt: 'tomorrow' },
        { serviceMode: 'turbo' },
        { name: 'x'.repeat(101) },
      ]) {
        const res = await u.post('/api/keys', body)
        expect(res.status).toBe(422)
        expect((await json(res)).error.code).toBe('VALIDATION_FAILED')
      }
      expect((await u.post('/api/keys', { limit: 0.0000001 })).status).toBe(400)
      expect((await json(u.get('/api/keys'))).items).toEqual([])
      expect((await u.fetch('/api/keys', { headers: { cookie: '' } })).status).toBe(401)
    })

    test('the key list pages by cursor, newest first, without repeats', async () => {
      const u = await signUp(gw)
      const made: string[] = []
      for (let i = 0; i < 7; i++) made.push((await json(u.post('/api/keys', { name: `k${i}` }))).id)
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const page: any = await json(u.get(`/api/keys?limit=3${cursor ? `&cursor=${cursor}` : ''}`))
        expect(page.items.length).toBeLessThanOrEqual(3)
        seen.push(...page.items.map((k: any) => k.id))
        cursor = page.nextCursor
      } while (cursor)
      expect(seen).toEqual([...made].reverse())
      const tooMany = await u.get('/api/keys?limit=101')
      expect(tooMany.status).toBe(400)
      expect(await json(tooMany)).toEqual({ error: { code: 'BAD_REQUEST', message: 'limit must be an integer from 1 to 100.' } })
    })
  })
}
