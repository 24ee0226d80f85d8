// A report's period (docs/operators.md "Reports"): `from` and `to` are UTC dates (YYYY-MM-DD),
// `from` included and `to` excluded, at most MAX_DAYS apart. Reports are kept per UTC day, so
// a period is whole days, and lies in the years every store and index holds: 1970 to 9999 (as
// lib/dates.ts). Pure.
import { GatewayError } from '../../core/errors.ts'

export const MAX_DAYS = 366
const DAY_MS = 86_400_000
const DATE = /^\d{4}-\d{2}-\d{2}$/
/** The first and the last day a period may name. */
export const FIRST_DAY = '1970-01-01'
export const LAST_DAY = '9999-12-31'

export interface Period {
  /** YYYY-MM-DD, included */
  from: string
  /** YYYY-MM-DD, excluded */
  to: string
  fromMs: number
  toMs: number
}

function parseDay(name: string, text: string): number {
  const ms = DATE.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text)
    throw new GatewayError('VALIDATION_FAILED', `${name}: must be a UTC date as YYYY-MM-DD.`, { param: name })
  if (text < FIRST_DAY || text > LAST_DAY)
    throw new GatewayError('VALIDATION_FAILED', `${name}: must be a date from ${FIRST_DAY} to ${LAST_DAY}.`, { param: name })
  return ms
}

export function parsePeriod(from: string, to: string): Period {
  const fromMs = parseDay('from', from)
  const toMs = parseDay('to', to)
  if (toMs <= fromMs) throw new GatewayError('VALIDATION_FAILED', 'to: must be a later date than from (to is excluded).', { param: 'to' })
  if (toMs - fromMs > MAX_DAYS * DAY_MS)
    throw new GatewayError('VALIDATION_FAILED', `to: a report covers at most ${MAX_DAYS} days.`, { param: 'to' })
  return { from, to, fromMs, toMs }
}

/** Every day of the period, in order. */
export function daysOf(p: Period): string[] {
  const days: string[] = []
  for (let ms = p.fromMs; ms < p.toMs; ms += DAY_MS) days.push(new Date(ms).toISOString().slice(0, 10))
  return days
}
