// IP addresses and CIDR blocks (TRUSTED_PROXIES). IPv4, IPv6 (with `::` and an embedded IPv4
// tail) and IPv4-mapped IPv6 — what a dual-stack socket reports for an IPv4 peer, `::ffff:a.b.c.d`
// — which is compared as the IPv4 address it carries.

export interface Ip {
  v: 4 | 6
  n: bigint
}

export interface IpBlock extends Ip {
  /** Prefix length within the family (0–32 or 0–128). */
  bits: number
}

function parseV4(s: string): bigint | undefined {
  const parts = s.split('.')
  if (parts.length !== 4) return undefined
  let n = 0n
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined
    n = (n << 8n) | BigInt(p)
  }
  return n
}

/** Words of one side of `::`; only the very last group of the address may be dotted IPv4. */
function words(groups: string[], mayEndInV4: boolean): number[] | undefined {
  const out: number[] = []
  for (const [i, g] of groups.entries()) {
    if (g.includes('.')) {
      const v4 = mayEndInV4 && i === groups.length - 1 ? parseV4(g) : undefined
      if (v4 === undefined) return undefined
      out.push(Number(v4 >> 16n), Number(v4 & 0xffffn))
    } else if (/^[0-9a-f]{1,4}$/i.test(g)) out.push(parseInt(g, 16))
    else return undefined
  }
  return out
}

function parseV6(s: string): bigint | undefined {
  const halves = s.split('::')
  if (halves.length > 2) return undefined
  const split = (h: string) => (h === '' ? [] : h.split(':'))
  const head = words(split(halves[0]!), halves.length === 1)
  const tail = halves.length === 2 ? words(split(halves[1]!), true) : []
  if (!head || !tail) return undefined
  const gap = 8 - head.length - tail.length
  if (halves.length === 1 ? gap !== 0 : gap < 1) return undefined
  return [...head, ...new Array<number>(gap).fill(0), ...tail].reduce((n, w) => (n << 16n) | BigInt(w), 0n)
}

/** Parses an address (brackets and an IPv6 zone are allowed); mapped IPv4 comes back as IPv4. */
export function parseIp(text: string): Ip | undefined {
  let s = text.trim()
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1)
  const zone = s.indexOf('%')
  if (zone !== -1) s = s.slice(0, zone)
  const v4 = parseV4(s)
  if (v4 !== undefined) return { v: 4, n: v4 }
  const v6 = s.includes(':') ? parseV6(s) : undefined
  if (v6 === undefined) return undefined
  if (v6 >> 32n === 0xffffn) return { v: 4, n: v6 & 0xffff_ffffn }
  return { v: 6, n: v6 }
}

/** "10.0.0.0/8", "fd00::/8", or a single address (a full-length block). */
export function parseIpBlock(text: string): IpBlock | undefined {
  const [addr, bitsText, extra] = text.trim().split('/')
  if (addr === undefined || extra !== undefined) return undefined
  const ip = parseIp(addr)
  if (!ip) return undefined
  const max = ip.v === 4 ? 32 : 128
  // A mapped-IPv4 block is written with an IPv6 prefix length (::ffff:10.0.0.0/104).
  const offset = ip.v === 4 && addr.includes(':') ? 96 : 0
  const bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) - offset : NaN
  if (!(bits >= 0 && bits <= max)) return undefined
  return { ...ip, n: ip.n & mask(max, bits), bits }
}

const mask = (max: number, bits: number) => (bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(max - bits))

export function inBlock(ip: Ip, block: IpBlock): boolean {
  return ip.v === block.v && (ip.n & mask(ip.v === 4 ? 32 : 128, block.bits)) === block.n
}

/** A predicate over address text; entries that do not parse are a caller error (config validates). */
export function ipMatcher(entries: readonly string[]): (ip: string | undefined) => boolean {
  const blocks = entries.map((e) => {
    const b = parseIpBlock(e)
    if (!b) throw new Error(`not an IP address or CIDR block: "${e}"`)
    return b
  })
  if (blocks.length === 0) return () => false
  return (text) => {
    const ip = text === undefined ? undefined : parseIp(text)
    return ip !== undefined && blocks.some((b) => inBlock(ip, b))
  }
}

/** Whether every address of `inner` is in `outer` (same family, no shorter prefix). */
export function blockWithin(inner: IpBlock, outer: IpBlock): boolean {
  return inner.bits >= outer.bits && inBlock(inner, outer)
}
