// Start-up failures as one line naming the thing and the fix (docs/deploy.md "Start-up failures");
// never echoes a password.
import { describe, expect, test } from 'bun:test'
import { StartupError, startupFailure } from '../../src/lib/startup-error.ts'

const coded = (code: string, message = 'driver said no') => Object.assign(new Error(message), { code })
const PG = 'postgres://app:s3cret-pw@db.internal:6543/tollgate'

describe('database', () => {
  test('unreachable names host:port and the fix, without the password', () => {
    const msg = startupFailure('database', coded('ECONNREFUSED'), { url: PG }).message
    expect(msg).toBe('database unreachable at db.internal:6543 (ECONNREFUSED): start PostgreSQL there or fix DATABASE_URL')
    expect(msg).not.toContain('s3cret')
  })
  test('a missing database names it and createdb', () => {
    expect(startupFailure('database', coded('3D000'), { url: PG }).message).toContain(
      'database "tollgate" does not exist on db.internal:6543: create it (createdb tollgate)',
    )
  })
  test('a refused login', () => {
    expect(startupFailure('database', coded('28P01', 'password authentication failed\nmore'), { url: PG }).message).toBe(
      'database at db.internal:6543 refused the login (password authentication failed): create the role or fix the user/password in DATABASE_URL',
    )
  })
  test('the default port is 5432', () => {
    expect(startupFailure('database', coded('ENOTFOUND'), { url: 'postgres://h/db' }).message).toContain('at h:5432')
  })
  test.each([undefined, 'memory://', 'file:///var/lib/tg'])('embedded (%p) points at the data directory', (url) => {
    expect(startupFailure('database', new Error('EACCES: permission denied'), { url }).message).toBe(
      'embedded database could not open (EACCES: permission denied): check that the data directory is writable, or set DATABASE_URL',
    )
  })
  test('anything else points at the server log', () => {
    expect(startupFailure('database', coded('XX000', 'internal'), { url: PG }).message).toContain(
      "failed at start (internal): check DATABASE_URL and the server's log",
    )
  })
})

describe('redis', () => {
  test('unreachable, default port 6379', () => {
    expect(startupFailure('redis', coded('ECONNREFUSED'), { url: 'redis://:pw@cache' }).message).toBe(
      'Redis unreachable at cache:6379 (ECONNREFUSED): start Redis there or fix REDIS_URL (unset it to run one instance on the in-process store)',
    )
  })
  test('refused authentication', () => {
    const msg = startupFailure('redis', new Error('WRONGPASS invalid username-password pair'), {
      url: 'redis://:hunter2@cache:7000',
    }).message
    expect(msg).toBe('Redis at cache:7000 refused authentication: fix the password in REDIS_URL')
    expect(msg).not.toContain('hunter2')
  })
  test('an unparsable URL is not echoed', () => {
    expect(startupFailure('redis', new Error('odd'), { url: 'not a url' }).message).toBe(
      'Redis at the configured address failed at start (odd): check REDIS_URL',
    )
  })
})

describe('catalog', () => {
  test.each([
    ['missing', coded('ENOENT'), 'CATALOG_FILE /etc/c.json does not exist: fix the path or unset CATALOG_FILE'],
    [
      'not JSON',
      new SyntaxError('Unexpected token }'),
      'CATALOG_FILE /etc/c.json is not valid JSON (Unexpected token }): fix the file (docs/providers.md)',
    ],
    [
      'invalid',
      new Error('catalog: model m has no price'),
      'CATALOG_FILE /etc/c.json is invalid: model m has no price (docs/providers.md)',
    ],
  ])('%s', (_, err, line) => expect(startupFailure('catalog', err, { file: '/etc/c.json' }).message).toBe(line))
})

describe('listen', () => {
  test.each([
    ['EADDRINUSE', 'port 8080 on 0.0.0.0 is already in use: stop the other process or set PORT to a free port'],
    ['EACCES', 'not allowed to listen on port 8080: use a port above 1023 or set PORT'],
    ['EADDRNOTAVAIL', 'HOST 0.0.0.0 is not an address of this machine: fix HOST'],
    ['EOTHER', 'could not listen on 0.0.0.0:8080 (driver said no): check HOST and PORT'],
  ])('%p', (code, line) => expect(startupFailure('listen', coded(code), { port: 8080 }).message).toBe(line))
})

test('a StartupError passes through unchanged; every result is a StartupError', () => {
  const own = new StartupError('already explained')
  expect(startupFailure('database', own)).toBe(own)
  expect(startupFailure('listen', 'a string')).toBeInstanceOf(StartupError)
})
