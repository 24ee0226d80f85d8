-- route-adjust v1: correct a route window's token count once a call's real usage is known
-- (docs/failover.md "Upstream limits"): the estimate taken by route-take.lua is replaced by it.
-- KEYS[1] the window hash the request was taken from   ARGV[1] tokens to add (negative: give back)
-- Returns the window's token count after, or -1 when the window has already ended (nothing kept).
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local t = redis.call('HINCRBY', KEYS[1], 't', ARGV[1])
if t < 0 then redis.call('HSET', KEYS[1], 't', 0) t = 0 end
return t
