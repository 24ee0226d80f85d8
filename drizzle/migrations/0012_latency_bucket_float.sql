-- latency_bucket in double precision: the same buckets as floor(4·log2(ms + 1)) in numeric (0011),
-- at a fraction of the cost — numeric log took about 8 µs of the ledger writer's statement per
-- call (docs/benchmarks.md "Where each microsecond goes"). The 1e-9 keeps exact powers of two
-- (log2 = an integer, which ln(x)/ln(2) may give a hair below) in their own bucket; no integer
-- below 2^31 lies within that of any other bucket edge (test/db/latency-bucket.test.ts).
CREATE OR REPLACE FUNCTION latency_bucket(ms integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT floor(4 * ln(greatest(ms, 0) + 1.0::float8) / ln(2.0::float8) + 1e-9)::integer
$$;
