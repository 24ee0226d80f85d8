-- settle v9: for each call of a batch (one shard), end the lease, release the reservation, apply
-- the real cost, correct the key's token window to the billed tokens, append the record.
-- Settlements that end in the same event-loop turn share one round trip (src/store/turn-batch.ts).
-- KEYS[1] outbox stream {s<n>}:outbox   KEYS[2] lease deadlines {s<n>}:leases
-- KEYS[3] lease data {s<n>}:lease   KEYS[4] leases released unsettled {s<n>}:released (zset)
-- Then per call, in order, its keys: the account hash {s<n>}:acct:<userId> and, only when it has
-- tokens to correct, the token window of its admission {s<n>}:tpm:<keyId>:<windowIndex>.
-- per call i: ARGV[7i-6] the key's field key:<spendKey>  ARGV[7i-5] −reserved (micro-USD)
--             ARGV[7i-4] −cost  ARGV[7i-3] cost − reserved: what the key's field moves by
--             ARGV[7i-2] record (JSON)  ARGV[7i-1] lease id ('' = none)
--             ARGV[7i] tokens reserved less tokens billed ('0' = nothing to correct, no token window sent)
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

local function settle(acct, tokenKey, keyField, unreserve, charge, keyMove, record, lease, tokens)
  local released = false
  if lease ~= '' then
    released = redis.call('ZREM', KEYS[2], lease) == 0 and redis.call('ZSCORE', KEYS[4], lease) ~= false
    if not released then redis.call('HDEL', KEYS[3], lease) end
  end
  if released then return 0 end
  correctTokens(tokenKey, tokens)
  -- One read for both: is the account mirrored, and is this key's field?
  local mirrored = redis.call('HMGET', acct, 'balance', keyField)
  if mirrored[1] then
    if unreserve ~= '0' then redis.call('HINCRBY', acct, 'reserved', unreserve) end
    -- A key's field not mirrored is loaded with this record counted (load.lua).
    if mirrored[2] and keyMove ~= '0' then redis.call('HINCRBY', acct, keyField, keyMove) end
    if charge ~= '0' then redis.call('HINCRBY', acct, 'balance', charge) end
  end
  redis.call('XADD', KEYS[1], '*', 'r', record)
  return 1
end

local applied = {}
local k = 5
for i = 1, #ARGV / 7 do
  local a = 7 * i
  local tokens = ARGV[a]
  local tokenKey = nil
  if tokens ~= '0' then tokenKey = KEYS[k + 1] end
  local ok, flag = pcall(settle, KEYS[k], tokenKey, ARGV[a - 6], ARGV[a - 5], ARGV[a - 4],
    ARGV[a - 3], ARGV[a - 2], ARGV[a - 1], tokens)
  if tokenKey then k = k + 2 else k = k + 1 end
  if ok then
    applied[i] = flag
  elseif type(flag) == 'table' then
    applied[i] = tostring(flag.err)
  else
    applied[i] = tostring(flag)
  end
end
return applied
