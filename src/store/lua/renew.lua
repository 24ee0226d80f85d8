-- renew v1: push a live lease's deadline out (long streams).
-- KEYS[1] lease deadlines {s<n>}:leases   ARGV[1] lease id   ARGV[2] new deadline (epoch ms)
-- Returns 1 if the lease exists (renewed), else 0 (settled or released as abandoned).
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1
