// Money is integers (docs/api.md "Money"). Ledger amounts are bigint micro-USD; catalog prices are bigint
// nano-USD per 1M tokens, so a price like 0.075 USD/1M stays exact. Decimals exist only on the wire.

/** Exact decimal text → integer scaled by 10^scale; undefined when it has more digits than scale. */
export function parseDecimal(text: string, scale: number): bigint | undefined {
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim())
  if (!m) return undefined
  const frac = m[3] ?? ''
  if (frac.length > scale && /[1-9]/.test(frac.slice(scale))) return undefined
  const digits = m[2]! + frac.slice(0, scale).padEnd(scale, '0')
  const value = BigInt(digits)
  return m[1] ? -value : value
}

/** A JSON number (as JS number) → scaled integer, through its shortest decimal text. */
export function numberToScaled(n: number, scale: number): bigint | undefined {
  if (!Number.isFinite(n)) return undefined
  const text = Math.abs(n) < 1e-6 && n !== 0 ? n.toFixed(20).replace(/0+$/, '') : String(n)
  return parseDecimal(text, scale)
}

/** Integer scaled by 10^scale → decimal text with exactly `digits` decimals (truncating extra). */
export function formatScaled(value: bigint, scale: number, digits: number): string {
  const neg = value < 0n
  const abs = neg ? -value : value
  const base = 10n ** BigInt(scale)
  const whole = abs / base
  let frac = (abs % base).toString().padStart(scale, '0')
  frac = digits <= scale ? frac.slice(0, digits) : frac.padEnd(digits, '0')
  return `${neg ? '-' : ''}${whole}${digits > 0 ? '.' + frac : ''}`
}

/** micro-USD → "0.00012300" (docs/api.md "Money": 8 decimals). */
export const formatUsd = (micros: bigint): string => formatScaled(micros, 6, 8)

export const usdToMicros = (usd: number): bigint | undefined => numberToScaled(usd, 6)

/** Integer division rounding up, for non-negative operands. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return a === 0n ? 0n : (a + b - 1n) / b
}
