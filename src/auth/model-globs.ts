// A key's model allowlist (docs/api.md "Key settings"): public slugs where `*` stands for any run
// of characters, `/` included ("acme/*", "*-mini", "*"). Everything else is literal.

/** A predicate over slugs for `patterns`; null (no allowlist) allows every model. */
export function modelMatcher(patterns: readonly string[] | null): (slug: string) => boolean {
  if (patterns === null) return () => true
  const regexes = patterns.map(globRegex)
  return (slug) => regexes.some((r) => r.test(slug))
}

function globRegex(pattern: string): RegExp {
  const literal = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${literal.join('.*')}$`)
}

/** The patterns of `patterns` that match none of `slugs` (a typo, or a model the catalog lacks). */
export function unmatchedPatterns(patterns: readonly string[], slugs: readonly string[]): string[] {
  return patterns.filter((p) => {
    const matches = modelMatcher([p])
    return !slugs.some(matches)
  })
}
