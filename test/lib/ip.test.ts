// IP addresses and CIDR blocks (TRUSTED_PROXIES), as tables.
import { describe, expect, test } from 'bun:test'
import { ipMatcher, parseIp, parseIpBlock } from '../../src/lib/ip.ts'
import { loadConfig } from '../../src/config.ts'

describe('parseIp', () => {
  test.each([
    ['10.0.0.1', { v: 4, n: 0x0a000001n }],
    ['255.255.255.255', { v: 4, n: 0xffffffffn }],
    ['::1', { v: 6, n: 1n }],
    ['::', { v: 6, n: 0n }],
    ['2001:db8::8a2e:370:7334', { v: 6, n: 0x20010db8000000000000_8a2e03707334n }],
    ['[fe80::1%eth0]', { v: 6, n: 0xfe800000000000000000000000000001n }],
    // IPv4-mapped IPv6 (dual-stack sockets) is the IPv4 address.
    ['::ffff:127.0.0.1', { v: 4, n: 0x7f000001n }],
    ['::FFFF:7f00:1', { v: 4, n: 0x7f000001n }],
    ['64:ff9b::192.0.2.33', { v: 6, n: 0x0064ff9b0000000000000000c0000221n }],
  ] as const)('%s', (text, expected) => {
    expect(parseIp(text)).toEqual(expected)
  })

  test.each([
    '',
    'unknown',
    '1.2.3',
    '1.2.3.4.5',
    '256.0.0.1',
    '1.2.3.-4',
    '::1::',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    'g::1',
    '1.2.3.4::',
    '::1.2.3.4:5',
    '12345::',
  ])('refuses %p', (text) => {
    expect(parseIp(text)).toBeUndefined()
  })
})

describe('parseIpBlock / ipMatcher', () => {
  test('blocks match their members only, by family', () => {
    const trusted = ipMatcher(['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '::ffff:172.16.0.0/108'])
    for (const ip of ['10.0.0.1', '10.255.255.255', '::ffff:10.1.2.3', '192.168.1.7', 'fd12::1', '172.16.5.5', '172.31.255.255'])
      expect(trusted(ip)).toBe(true)
    for (const ip of ['11.0.0.1', '192.168.1.8', 'fe80::1', '::a00:1', '172.32.0.1', 'unknown', undefined]) expect(trusted(ip)).toBe(false)
    expect(ipMatcher([])('127.0.0.1')).toBe(false)
    expect(ipMatcher(['0.0.0.0/0'])('8.8.8.8')).toBe(true)
    expect(ipMatcher(['0.0.0.0/0'])('::1')).toBe(false)
  })

  test.each(['10.0.0.0/33', '::/129', '10.0.0.0/', '10.0.0.0/8/8', 'localhost', '10.0.0.0/x', '::ffff:10.0.0.0/95'])(
    'refuses %p',
    (text) => {
      expect(parseIpBlock(text)).toBeUndefined()
    },
  )

  test('a block keeps only its network bits', () => {
    expect(parseIpBlock('10.1.2.3/8')).toEqual({ v: 4, n: 0x0a000000n, bits: 8 })
  })

  test('TRUSTED_PROXIES is validated at start with one clear line', () => {
    expect(loadConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8, ::1 ' }).trustedProxies).toEqual(['10.0.0.0/8', '::1'])
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8,proxy.local' })).toThrow(
      'TRUSTED_PROXIES must list IP addresses or CIDR blocks, got "proxy.local"',
    )
    expect(loadConfig({}).sessionTtlSeconds).toBe(7 * 24 * 3600)
    expect(() => loadConfig({ SESSION_TTL_HOURS: '0' })).toThrow('SESSION_TTL_HOURS')
  })
})
