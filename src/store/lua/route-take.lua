-- route-take v1: one upstream request against a route's per-minute quota (docs/failover.md
-- "Upstream limits"), shared by every instance.
-- KEYS[1] window hash {prefix}{rt:<gateway>|<upstream model>}:<windowIndex> (fields r = requests, t = tokens)
-- ARGV[1] rpm (0 = none)   ARGV[2] tpm (0 = none)   ARGV[3] tokens this request is estimated at
-- ARGV[4] ttl (ms)
-- Returns {admitted (1/0), 'rpm' | 'tpm' | 'ok'}. A refused request counts nothing. A request
-- estimated above the whole tpm still passes in an unused window, so it is not refused forever.
local rpm, tpm, tokens = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local used = redis.call('HMGET', KEYS[1], 'r', 't')
local r, t = tonumber(used[1] or '0'), tonumber(used[2] or '0')
if rpm > 0 and r >= rpm then return {0, 'rpm'} end
if tpm > 0 and t > 0 and t + tokens > tpm then return {0, 'tpm'} end
redis.call('HINCRBY', KEYS[1], 'r', 1)
redis.call('HINCRBY', KEYS[1], 't', tokens)
if r == 0 and t == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return {1, 'ok'}
