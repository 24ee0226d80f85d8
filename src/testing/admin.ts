// The kit's typed hands on a running Tollgate (docs/testing.md "What startTollgate returns"):
// users, keys with limits, credit, balances and the request log, each through the admin API
// (README "Admin API") answered in-process — the same checks and views an operator gets, with no
// socket and no HTTP for the test to write. A refusal throws a TollgateAdminError with its status.
import type { NewKey, KeyPatch } from '../admin/model.ts'
import type { RequestLog } from '../console/logs/model.ts'
import type { Transaction } from '../console/transactions/model.ts'

export class TollgateAdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

type Call = (method: string, path: string, body?: unknown) => Promise<any>

/** An admin API call through `handle` (the app's in-process entry). */
export function adminCaller(handle: (r: Request) => Promise<Response>, token: string): Call {
  return async (method, path, body) => {
    const res = await handle(
      new Request(`http://tollgate.test/api/admin${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    )
    const answer = (await res.json().catch(() => null)) as any
    if (!res.ok) throw new TollgateAdminError(res.status, answer?.error?.message ?? `admin API ${method} ${path}: ${res.status}`)
    return answer
  }
}

export type KeyOptions = Omit<typeof NewKey.static, 'userId'>
export type KeyChanges = typeof KeyPatch.static

export interface TestUser {
  id: string
  email: string
}

export interface TestKey {
  id: string
  /** The secret, for `Authorization: Bearer` / `x-api-key`. */
  key: string
}

/** A key as the admin API lists it (limit and spent in USD). */
export interface KeyView {
  id: string
  name: string
  prefix: string
  limit: number | null
  spent: number
  rpm: number | null
  revokedAt: string | null
  [member: string]: unknown
}

export interface TollgateAdmin {
  /** A user with `credit` USD (default 0) and, unless `key: false`, one key with `keyOptions`. */
  createUser(o?: { email?: string; credit?: number; key?: KeyOptions | false }): Promise<TestUser & { key?: TestKey }>
  /** A key for a user: limits are USD (`limit`), calls a minute (`rpm`), tokens a minute (`tpm`), `maxConcurrent`, `models`… */
  createKey(userId: string, o?: KeyOptions): Promise<TestKey>
  updateKey(keyId: string, changes: KeyChanges): Promise<KeyView>
  revokeKey(keyId: string): Promise<void>
  keys(userId: string): Promise<KeyView[]>
  disableUser(userId: string): Promise<void>
  enableUser(userId: string): Promise<void>
  /** The user's calls, newest first, once every call so far is settled (cost in USD). */
  requestLog(
    userId: string,
    filter?: { keyId?: string; model?: string; status?: 'success' | 'error'; limit?: number },
  ): Promise<RequestLog[]>
}

export interface TollgateWallet {
  /** Adds (or, negative, removes) USD; answers the new balance. */
  credit(userId: string, usd: number, note?: string): Promise<number>
  /** USD: the settled balance and what calls in flight hold, once every call so far is settled. */
  balance(userId: string): Promise<{ balance: number; reserved: number }>
  /** The user's ledger entries, newest first, once every call so far is settled. */
  transactions(userId: string): Promise<Transaction[]>
}

const query = (q: Record<string, string | number | undefined>) => {
  const s = new URLSearchParams(Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString()
  return s ? `?${s}` : ''
}

export function testAdmin(call: Call, settled: () => Promise<void>): { admin: TollgateAdmin; wallet: TollgateWallet } {
  const admin: TollgateAdmin = {
    async createUser(o = {}) {
      const user = (await call('POST', '/users', { email: o.email ?? `user-${crypto.randomUUID()}@tollgate.test` })) as TestUser
      if (o.credit) await wallet.credit(user.id, o.credit)
      const key = o.key === false ? undefined : await admin.createKey(user.id, o.key)
      return { id: user.id, email: user.email, key }
    },
    createKey: async (userId, o = {}) => {
      const { id, key } = await call('POST', '/keys', { ...o, userId })
      return { id, key }
    },
    updateKey: (keyId, changes) => call('PATCH', `/keys/${keyId}`, changes),
    revokeKey: async (keyId) => void (await call('DELETE', `/keys/${keyId}`)),
    keys: async (userId) => (await call('GET', `/users/${userId}/keys`)).items,
    disableUser: async (userId) => void (await call('POST', `/users/${userId}/disable`)),
    enableUser: async (userId) => void (await call('POST', `/users/${userId}/enable`)),
    async requestLog(userId, filter = {}) {
      await settled()
      return (await call('GET', `/users/${userId}/logs${query({ limit: 100, ...filter })}`)).items
    },
  }
  const wallet: TollgateWallet = {
    credit: async (userId, usd, note) => (await call('POST', `/users/${userId}/credits`, { amount: usd, note })).balance,
    async balance(userId) {
      await settled()
      const { balance, reserved } = await call('GET', `/users/${userId}`)
      return { balance, reserved }
    },
    async transactions(userId) {
      await settled()
      return (await call('GET', `/users/${userId}/transactions${query({ limit: 100 })}`)).items
    },
  }
  return { admin, wallet }
}
