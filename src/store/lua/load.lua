-- load v1: mirror Postgres values into the account hash unless already present.
-- KEYS[1] account hash  ARGV[1] keyId  ARGV[2] balance (micro-USD)  ARGV[3] key spent (micro-USD)
-- Returns 1.
redis.call('HSETNX', KEYS[1], 'balance', ARGV[2])
redis.call('HSETNX', KEYS[1], 'reserved', '0')
redis.call('HSETNX', KEYS[1], 'kspent:' .. ARGV[1], ARGV[3])
return 1
