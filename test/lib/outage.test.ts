// The one rule for a backing-service outage (src/lib/outage.ts): what it recognises, through
// wrappers, and what it leaves to the caller's own answer.
import { expect, test } from 'bun:test'
import { DeadlineError } from '../../src/lib/deadline.ts'
import { isOutage } from '../../src/lib/outage.ts'

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code })
const wrapped = (cause: unknown) => new Error('Failed query: select 1', { cause })

test('connection failures, timeouts and a Postgres or Redis that cannot serve are outages, also when wrapped', () => {
  for (const e of [
    new DeadlineError('database statement', 500),
    coded('ECONNREFUSED'),
    coded('CONNECT_TIMEOUT'),
    coded('CONNECTION_CLOSED'),
    coded('57P01', 'terminating connection due to administrator command'),
    coded('08006'),
    coded('53300', 'too many clients'),
    new Error('Connection is closed.'),
    new Error("Stream isn't writeable and enableOfflineQueue options is false"),
    new Error('Command timed out'),
    new Error('Reached the max retries per request limit (which is 0).'),
    new Error('OOM command not allowed when used memory > maxmemory.'),
    new Error('LOADING Redis is loading the dataset in memory'),
  ]) {
    expect({ e: String(e), outage: isOutage(e) }).toEqual({ e: String(e), outage: true })
    expect(isOutage(wrapped(e))).toBe(true)
  }
})

test('a refused statement, a bug or an unrelated error is not an outage', () => {
  for (const e of [
    coded('23505', 'duplicate key value violates unique constraint'),
    coded('22P02', 'invalid input syntax'),
    coded('42P01', 'relation does not exist'),
    new TypeError("Cannot read properties of undefined (reading 'id')"),
    new Error('WRONGTYPE Operation against a key holding the wrong kind of value'),
    'Connection is closed.',
    undefined,
  ])
    expect(isOutage(wrapped(e))).toBe(false)
})
