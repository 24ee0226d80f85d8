// A view of the database for request handlers (console, admin) in which every statement is
// answered or fails within `ms` (docs/operations.md "Console and admin during an outage").
// postgres.js has no client-side statement timeout, and a blackholed server (partition, hung
// host) answers nothing: without a bound, a console call would hang for as long as TCP keeps the
// connection. The statement itself is not cancelled, only no longer waited for (as
// lib/deadline.ts says); a transaction given up before its COMMIT rolls back (boundedBegin).
// Background work (the ledger writer, migrations) keeps the unbounded client.
import { drizzle } from 'drizzle-orm/postgres-js'
import type postgres from 'postgres'
import { DeadlineError, withDeadline } from '../lib/deadline.ts'
import type { Db } from './client.ts'
import * as schema from './schema/index.ts'

type Sql = postgres.Sql

/** `db` with each statement bounded by `ms`; `db` itself when it is not on postgres.js (PGlite
 *  runs in-process and has no outage). */
export function boundedDb(db: Db, ms: number): Db {
  const client = (db as { $client?: unknown }).$client
  if (!(ms > 0) || !isPostgresJs(client)) return db
  return drizzle(boundedSql(client, ms), { schema }) as unknown as Db
}

export const isPostgresJs = (c: unknown): c is Sql =>
  typeof c === 'function' && typeof (c as Sql).unsafe === 'function' && typeof (c as Sql).begin === 'function'

/** drizzle sends every statement through `unsafe` and every transaction through `begin`. */
function boundedSql(sql: Sql, ms: number): Sql {
  return new Proxy(sql, {
    get(target, prop) {
      if (prop === 'unsafe') return (...args: Parameters<Sql['unsafe']>) => boundedQuery(target.unsafe(...args), ms)
      if (prop === 'begin') return (...args: unknown[]) => boundedBegin(target, args, ms)
      const value = Reflect.get(target, prop, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** A pending query whose result is awaited for at most `ms`. Its chainable modifiers
 *  (`.values()`, `.raw()`…) return the bounded query, not the raw one. */
function boundedQuery<T extends object>(query: T, ms: number): T {
  const bounded: T = new Proxy(query, {
    get(target, prop) {
      if (prop === 'then')
        return (ok?: (v: unknown) => unknown, fail?: (e: unknown) => unknown) =>
          withDeadline(target as unknown as Promise<unknown>, ms, 'database statement').then(ok, fail)
      const value = Reflect.get(target, prop, target)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        const out = value.apply(target, args)
        return out === target ? bounded : out
      }
    },
  })
  return bounded
}

/**
 * A transaction must start (connection, BEGIN) within `ms`, each of its statements is bounded in
 * turn, and so is its COMMIT. One that starts after its caller gave up rolls back at once. A
 * COMMIT not answered in time may still have been applied: the caller gets the 503 anyway
 * (docs/operations.md "Console and admin during an outage").
 */
function boundedBegin(sql: Sql, args: unknown[], ms: number): Promise<unknown> {
  const body = args.pop() as (tx: Sql) => Promise<unknown>
  let started = false
  let abandoned = false
  let timer: Timer | undefined
  let giveUp: (e: Error) => void = () => {}
  const late = new Promise<never>((_, reject) => {
    giveUp = reject
  })
  const arm = (what: string) => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      abandoned = !started
      giveUp(new DeadlineError(what, ms))
    }, ms)
  }
  arm('database transaction start')
  const run = (sql.begin as (...a: unknown[]) => Promise<unknown>)(...args, async (tx: Sql) => {
    if (abandoned) throw new DeadlineError('database transaction start', ms)
    started = true
    clearTimeout(timer)
    let result: unknown
    try {
      result = await body(boundedSql(tx, ms))
    } catch (e) {
      // The work failed: the caller hears it now; postgres.js's ROLLBACK follows in the background.
      giveUp(e as Error)
      throw e
    }
    arm('database commit')
    return result
  })
  return Promise.race([run, late]).finally(() => clearTimeout(timer))
}
