-- hit v1: one fixed-window counter (per-IP console and auth limits).
-- KEYS[1] counter {prefix}{c:<bucket>}:<windowIndex>   ARGV[1] limit   ARGV[2] ttl (ms)
-- Returns {admitted (1/0), count after this call}. A rejected call does not count.
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return {0, count} end
count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {1, count}
