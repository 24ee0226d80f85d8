-- release v4: end an expired lease as abandoned (docs/drain.md): release its reservation, bill
-- its abandon cost, append its record, and mark it so a late settlement moves nothing.
-- KEYS[1] lease deadlines {s<n>}:leases   KEYS[2] lease data {s<n>}:lease
-- KEYS[3] account hash of the lease's user   KEYS[4] outbox stream {s<n>}:outbox
-- KEYS[5] leases released unsettled {s<n>}:released (zset: lease id → release time)
-- ARGV[1] lease id  ARGV[2] now (epoch ms)  ARGV[3] how long a release is kept there (ms)
-- Returns 1 if released; 0 if it was settled, renewed or released meanwhile.
local deadline = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not deadline or tonumber(deadline) > tonumber(ARGV[2]) then return 0 end
local data = redis.call('HGET', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[5], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', string.format('(%d', tonumber(ARGV[2]) - tonumber(ARGV[3])))
if not data then return 1 end
local _, key, reserve, cost, record = string.match(data, '^([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$')
if not record then return 1 end
local mirrored = redis.call('HMGET', KEYS[3], 'balance', 'key:' .. key)
if mirrored[1] then
  if reserve ~= '0' then redis.call('HINCRBY', KEYS[3], 'reserved', '-' .. reserve) end
  -- The key's field holds its spend and reservations: the reservation leaves, the cost stays.
  -- One not mirrored is loaded with this record counted (load.lua).
  if mirrored[2] then
    if reserve ~= '0' then redis.call('HINCRBY', KEYS[3], 'key:' .. key, '-' .. reserve) end
    if cost ~= '0' then redis.call('HINCRBY', KEYS[3], 'key:' .. key, cost) end
  end
  if cost ~= '0' then redis.call('HINCRBY', KEYS[3], 'balance', '-' .. cost) end
end
redis.call('XADD', KEYS[4], '*', 'r', record)
return 1
