// Latency percentiles from latency_daily's buckets (docs/operators.md "Reports"). A call of `ms`
// milliseconds lies in bucket floor(4·log2(ms + 1)) (the SQL function latency_bucket, migration
// *_operators), so bucket b holds [2^(b/4) − 1, 2^((b+1)/4) − 1) ms; a percentile is reported
// as the upper edge of the bucket it falls in, at most ~19 % above the true value. Pure.

export interface BucketCount {
  bucket: number
  calls: bigint
}

export const bucketUpperMs = (bucket: number): number => Math.round(2 ** ((bucket + 1) / 4) - 1)

/** The q-quantile (0 < q ≤ 1) of the calls, in ms; null without calls. */
export function percentileMs(buckets: readonly BucketCount[], q: number): number | null {
  const sorted = [...buckets].sort((a, b) => a.bucket - b.bucket)
  const total = sorted.reduce((n, b) => n + b.calls, 0n)
  if (total === 0n) return null
  // The rank of the quantile's call, 1-based: ceil(q · total), at least 1.
  const rank = BigInt(Math.max(1, Math.ceil(q * Number(total))))
  let seen = 0n
  for (const b of sorted) {
    seen += b.calls
    if (seen >= rank) return bucketUpperMs(b.bucket)
  }
  return bucketUpperMs(sorted.at(-1)!.bucket)
}
