-- settle v2: end the lease, release the reservation, apply the real cost, append the record.
-- KEYS[1] account hash {s<n>}:acct:<userId>   KEYS[2] outbox stream {s<n>}:outbox
-- KEYS[3] lease deadlines {s<n>}:leases   KEYS[4] lease data {s<n>}:lease
-- KEYS[5] abandoned marker {s<n>}:abandoned:<leaseId>
-- ARGV[1] keyId  ARGV[2] reserved (micro-USD)  ARGV[3] cost (micro-USD)  ARGV[4] record (JSON)
-- ARGV[5] lease id ('' = none)
-- Returns {1, new balance}; {0, 0} when the lease was already released as abandoned (the sweep
-- billed and recorded it): nothing moves. The mirror may be absent (evicted or flushed): the
-- record still goes to the outbox, so Postgres stays right and the next call reloads the mirror.
if ARGV[5] ~= '' then
  if redis.call('ZREM', KEYS[3], ARGV[5]) == 0 and redis.call('EXISTS', KEYS[5]) == 1 then return {0, 0} end
  redis.call('HDEL', KEYS[4], ARGV[5])
end
local balance = 0
if redis.call('HEXISTS', KEYS[1], 'balance') == 1 then
  if ARGV[2] ~= '0' then
    redis.call('HINCRBY', KEYS[1], 'reserved', '-' .. ARGV[2])
    redis.call('HINCRBY', KEYS[1], 'kres:' .. ARGV[1], '-' .. ARGV[2])
  end
  if ARGV[3] ~= '0' then
    redis.call('HINCRBY', KEYS[1], 'kspent:' .. ARGV[1], ARGV[3])
    balance = redis.call('HINCRBY', KEYS[1], 'balance', '-' .. ARGV[3])
  else
    balance = tonumber(redis.call('HGET', KEYS[1], 'balance'))
  end
end
redis.call('XADD', KEYS[2], '*', 'r', ARGV[4])
return {1, balance}
