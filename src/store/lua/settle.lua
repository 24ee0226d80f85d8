-- settle v10: for each call of a batch, end the lease, release the reservation, apply the real
-- cost, correct the key's token window to the billed tokens, append the record. Settlements that
-- end in the same event-loop turn share one round trip (src/store/turn-batch.ts): on a cluster
-- those of one shard (one slot), on a single Redis those of every shard, as one group per shard.
-- Per group, in order: KEYS outbox stream {s<n>}:outbox, lease deadlines {s<n>}:leases, lease data
-- {s<n>}:lease, leases released unsettled {s<n>}:released (zset); then per call its keys: the
-- account hash {s<n>}:acct:<userId> and, only when it has tokens to correct, the token window of
-- its admission {s<n>}:tpm:<keyId>:<windowIndex>. ARGV: the group's number of calls, then per call
--   [0] the key's field key:<spendKey>  [1] −reserved (micro-USD)  [2] −cost
--   [3] cost − reserved: what the key's field moves by  [4] record (JSON)  [5] lease id ('' = none)
--   [6] tokens reserved less tokens billed ('0' = nothing to correct, no token window sent)
-- (The client sends the differences: no arithmetic or string building here.)
-- Returns one flag per call: 1 applied; 0 when its lease was already released as abandoned (the
-- sweep billed and recorded it): nothing moves for it; or the error text when this call's own
-- step failed (a corrupt account hash): that call takes the settlement fallback, which records it
-- and drops its mirror with its lease, and the other calls of the batch are settled as usual.
-- The mirror may be absent (evicted or flushed): the record still goes to the outbox, so Postgres
-- stays right and the next call reloads the mirror. A token window that has ended (expired) is
-- left alone; one still counting never goes below zero.
local function correctTokens(tokenKey, delta)
  if not tokenKey or redis.call('EXISTS', tokenKey) == 0 then return end
  if redis.call('DECRBY', tokenKey, delta) < 0 then redis.call('SET', tokenKey, '0', 'KEEPTTL') end
end

local function settle(shard, acct, tokenKey, a)
  local keyField, unreserve, charge, keyMove, record, lease = ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4], ARGV[a + 5]
  local released = false
  if lease ~= '' then
    released = redis.call('ZREM', shard.leases, lease) == 0 and redis.call('ZSCORE', shard.released, lease) ~= false
    if not released then redis.call('HDEL', shard.leaseData, lease) end
  end
  if released then return 0 end
  correctTokens(tokenKey, ARGV[a + 6])
  -- One read for both: is the account mirrored, and is this key's field?
  local mirrored = redis.call('HMGET', acct, 'balance', keyField)
  if mirrored[1] then
    if unreserve ~= '0' then redis.call('HINCRBY', acct, 'reserved', unreserve) end
    -- A key's field not mirrored is loaded with this record counted (load.lua).
    if mirrored[2] and keyMove ~= '0' then redis.call('HINCRBY', acct, keyField, keyMove) end
    if charge ~= '0' then redis.call('HINCRBY', acct, 'balance', charge) end
  end
  redis.call('XADD', shard.outbox, '*', 'r', record)
  return 1
end

local applied = {}
local k, a = 1, 1
while a <= #ARGV do
  local shard = { outbox = KEYS[k], leases = KEYS[k + 1], leaseData = KEYS[k + 2], released = KEYS[k + 3] }
  local n = tonumber(ARGV[a])
  k, a = k + 4, a + 1
  for _ = 1, n do
    local tokenKey = nil
    if ARGV[a + 6] ~= '0' then tokenKey = KEYS[k + 1] end
    local ok, flag = pcall(settle, shard, KEYS[k], tokenKey, a)
    if ok then
      applied[#applied + 1] = flag
    elseif type(flag) == 'table' then
      applied[#applied + 1] = tostring(flag.err)
    else
      applied[#applied + 1] = tostring(flag)
    end
    if tokenKey then k = k + 2 else k = k + 1 end
    a = a + 7
  end
end
return applied
