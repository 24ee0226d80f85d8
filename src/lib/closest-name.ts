// "Did you mean …?" for a misspelt field name: the known name nearest by edit distance, compared
// without regard to case (so `apikey` finds `apiKey`), when it is near enough to be a slip.

/** Levenshtein distance between two strings (insertions, deletions and substitutions cost 1). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    prev = row
  }
  return prev[b.length]!
}

/** The candidate closest to `name`, if within 1 edit (names under 5 characters) or 2 (longer). */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const wanted = name.toLowerCase()
  const limit = name.length < 5 ? 1 : 2
  let best: { name: string; distance: number } | undefined
  for (const c of candidates) {
    const distance = editDistance(wanted, c.toLowerCase())
    if (distance <= limit && (!best || distance < best.distance)) best = { name: c, distance }
  }
  return best?.name
}
