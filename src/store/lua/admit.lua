-- admit v2: per-key rate window + credit reservation + its lease, atomically (one round trip).
-- KEYS[1] account hash   {s<n>}:acct:<userId>   fields balance, reserved, kspent:<key>, kres:<key>
-- KEYS[2] window counter {s<n>}:rl:<keyId>:<windowIndex>
-- KEYS[3] lease deadlines {s<n>}:leases (zset)   KEYS[4] lease data {s<n>}:lease (hash)
-- ARGV[1] keyId  ARGV[2] rpm  ARGV[3] reserve (micro-USD)  ARGV[4] key limit (micro-USD, -1 = none)
-- ARGV[5] window ttl (ms)  ARGV[6] lease id ('' = no lease)  ARGV[7] lease deadline (epoch ms)
-- ARGV[8] lease data "userId<TAB>keyId<TAB>reserve<TAB>abandon cost<TAB>abandon record"
-- Returns {status, count}: status 1 admitted, 0 rate limited, -1 cold (load and retry),
-- -2 balance short, -3 key limit short. Nothing is written unless the request is admitted.
local count = tonumber(redis.call('GET', KEYS[2]) or '0')
local rpm = tonumber(ARGV[2])
if count >= rpm then return {0, count} end
local acct = redis.call('HMGET', KEYS[1], 'balance', 'reserved', 'kspent:' .. ARGV[1], 'kres:' .. ARGV[1])
if not acct[1] or not acct[3] then return {-1, count} end
local reserve = tonumber(ARGV[3])
local reserved = tonumber(acct[2] or '0')
if tonumber(acct[1]) - reserved < reserve then return {-2, count} end
local limit = tonumber(ARGV[4])
if limit >= 0 and tonumber(acct[3]) + tonumber(acct[4] or '0') + reserve > limit then return {-3, count} end
count = redis.call('INCR', KEYS[2])
if count == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[5]) end
if reserve > 0 then
  redis.call('HINCRBY', KEYS[1], 'reserved', ARGV[3])
  redis.call('HINCRBY', KEYS[1], 'kres:' .. ARGV[1], ARGV[3])
end
if ARGV[6] ~= '' then
  redis.call('ZADD', KEYS[3], ARGV[7], ARGV[6])
  redis.call('HSET', KEYS[4], ARGV[6], ARGV[8])
end
return {1, count}
