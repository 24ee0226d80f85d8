// How numbers and times read in the console: USD with cents (and up to 6 decimals for the
// sub-cent amounts per-token billing produces), UTC times, prices per 1M tokens.
const usdFmt = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 6 })
const intFmt = new Intl.NumberFormat('en-US')

export const usd = (n: number) => usdFmt.format(n)
export const int = (n: number) => intFmt.format(n)

/** Signed amounts keep their sign visible: +$10.00, −$0.000221. */
export const signedUsd = (n: number) => (n > 0 ? `+${usd(n)}` : n < 0 ? `−${usd(-n)}` : usd(0))

/** `2026-11-24 16:40 UTC` — one format whatever the browser's locale. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`
}

export const day = (iso: string) => iso.slice(0, 10)

/** `$0.15` per 1M tokens, or "—" when the model has no such price. */
export const perMillion = (n: number | null | undefined) => (n === null || n === undefined ? '—' : usd(n))

export function contextWindow(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(1)}M tokens`
  if (n >= 1000) return `${Math.round(n / 1000)}K tokens`
  return `${n} tokens`
}
