-- settle v1: release a reservation, apply the real cost, append the record to the outbox.
-- KEYS[1] account hash {s<n>}:acct:<userId>   KEYS[2] outbox stream {s<n>}:outbox
-- ARGV[1] keyId  ARGV[2] reserved (micro-USD)  ARGV[3] cost (micro-USD)  ARGV[4] record (JSON)
-- Returns the new balance. The mirror may be absent (evicted or flushed): the record still goes
-- to the outbox, so Postgres stays right and the next call reloads the mirror.
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
return balance
