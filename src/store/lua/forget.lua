-- forget v1: drop an account's mirror together with the lease of a call whose settlement got no
-- answer (settle-rescue.ts): the lease and its data go, the lease is marked abandoned so that a
-- late settle or release of it applies nothing, and the mirror is deleted (the next admission
-- reloads it from Postgres). What a MULTI of the same four commands did, as one script, so that
-- it can go down the connection the call's admit and settle went down.
-- KEYS[1] lease deadlines {s<n>}:leases   KEYS[2] lease data {s<n>}:lease-data
-- KEYS[3] the lease's abandoned mark       KEYS[4] account mirror
-- ARGV[1] lease id   ARGV[2] the mark's lifetime (ms)
-- Returns 1.
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], '1', 'PX', ARGV[2])
redis.call('DEL', KEYS[4])
return 1
