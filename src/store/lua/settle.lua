-- settle v5: for each call of a batch (one shard), end the lease, release the reservation, apply
-- the real cost, append the record. Settlements that end in the same event-loop turn share one
-- round trip (src/store/turn-batch.ts).
-- KEYS[1] outbox stream {s<n>}:outbox   KEYS[2] lease deadlines {s<n>}:leases
-- KEYS[3] lease data {s<n>}:lease
-- per call i (from 1): KEYS[2+2i] account hash {s<n>}:acct:<userId>
--                      KEYS[3+2i] abandoned marker {s<n>}:abandoned:<leaseId>
-- per call i: ARGV[5i-4] keyId  ARGV[5i-3] reserved (micro-USD)  ARGV[5i-2] cost (micro-USD)
--             ARGV[5i-1] record (JSON)  ARGV[5i] lease id ('' = none)
-- Returns one flag per call: 1 applied; 0 when its lease was already released as abandoned (the
-- sweep billed and recorded it): nothing moves for it; or the error text when this call's own
-- step failed (a corrupt account hash): that call takes the settlement fallback, which records it
-- and drops its mirror with its lease, and the other calls of the batch are settled as usual.
-- The mirror may be absent (evicted or flushed): the record still goes to the outbox, so Postgres
-- stays right and the next call reloads the mirror.
local function settle(acct, abandoned, keyId, reserved, cost, record, lease)
  local released = false
  if lease ~= '' then
    released = redis.call('ZREM', KEYS[2], lease) == 0 and redis.call('EXISTS', abandoned) == 1
    if not released then redis.call('HDEL', KEYS[3], lease) end
  end
  if released then return 0 end
  -- One read for both: is the account mirrored, and is this key's spend?
  local mirrored = redis.call('HMGET', acct, 'balance', 'kspent:' .. keyId)
  if mirrored[1] then
    if reserved ~= '0' then
      redis.call('HINCRBY', acct, 'reserved', '-' .. reserved)
      redis.call('HINCRBY', acct, 'kres:' .. keyId, '-' .. reserved)
    end
    if cost ~= '0' then
      -- A key's spend not mirrored is loaded with this record counted (load.lua).
      if mirrored[2] then redis.call('HINCRBY', acct, 'kspent:' .. keyId, cost) end
      redis.call('HINCRBY', acct, 'balance', '-' .. cost)
    end
  end
  redis.call('XADD', KEYS[1], '*', 'r', record)
  return 1
end

local applied = {}
for i = 1, #ARGV / 5 do
  local a = 5 * i
  local ok, flag = pcall(settle, KEYS[2 + 2 * i], KEYS[3 + 2 * i], ARGV[a - 4], ARGV[a - 3], ARGV[a - 2], ARGV[a - 1], ARGV[a])
  if ok then
    applied[i] = flag
  elseif type(flag) == 'table' then
    applied[i] = tostring(flag.err)
  else
    applied[i] = tostring(flag)
  end
end
return applied
