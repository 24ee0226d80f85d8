-- admit v3: for each call of a batch (one shard), the per-key rate window + credit reservation +
-- its lease, atomically per call. Admissions issued in the same event-loop turn share one round
-- trip (src/store/turn-batch.ts), checked and applied in the order they were issued.
-- KEYS[1] lease deadlines {s<n>}:leases (zset)   KEYS[2] lease data {s<n>}:lease (hash)
-- per call i (from 1): KEYS[1+2i] account hash {s<n>}:acct:<userId>
--                        fields balance, reserved, kspent:<key>, kres:<key>
--                      KEYS[2+2i] window counter {s<n>}:rl:<keyId>:<windowIndex>
-- per call i: ARGV[8i-7] keyId  ARGV[8i-6] rpm  ARGV[8i-5] reserve (micro-USD)
--   ARGV[8i-4] key limit (micro-USD, -1 = none)  ARGV[8i-3] window ttl (ms)
--   ARGV[8i-2] lease id ('' = no lease)  ARGV[8i-1] lease deadline (epoch ms)
--   ARGV[8i] lease data "userId<TAB>keyId<TAB>reserve<TAB>abandon cost<TAB>abandon record"
-- Returns {status, count} per call, flattened: status 1 admitted, 0 rate limited, -1 cold (load
-- and retry), -2 balance short, -3 key limit short; -9 when this call's own step failed (count
-- is then the error text), which leaves the other calls of the batch as they are. Nothing is
-- written for a call unless it is admitted.
local function admit(acctKey, windowKey, keyId, rpmArg, reserveArg, limitArg, ttl, lease, deadline, data)
  local count = tonumber(redis.call('GET', windowKey) or '0')
  if count >= tonumber(rpmArg) then return 0, count end
  local acct = redis.call('HMGET', acctKey, 'balance', 'reserved', 'kspent:' .. keyId, 'kres:' .. keyId)
  if not acct[1] or not acct[3] then return -1, count end
  local reserve = tonumber(reserveArg)
  if tonumber(acct[1]) - tonumber(acct[2] or '0') < reserve then return -2, count end
  local limit = tonumber(limitArg)
  if limit >= 0 and tonumber(acct[3]) + tonumber(acct[4] or '0') + reserve > limit then return -3, count end
  count = redis.call('INCR', windowKey)
  if count == 1 then redis.call('PEXPIRE', windowKey, ttl) end
  if reserve > 0 then
    redis.call('HINCRBY', acctKey, 'reserved', reserveArg)
    redis.call('HINCRBY', acctKey, 'kres:' .. keyId, reserveArg)
  end
  if lease ~= '' then
    redis.call('ZADD', KEYS[1], deadline, lease)
    redis.call('HSET', KEYS[2], lease, data)
  end
  return 1, count
end

local out = {}
for i = 1, #ARGV / 8 do
  local a = 8 * i
  local ok, status, count = pcall(admit, KEYS[1 + 2 * i], KEYS[2 + 2 * i], ARGV[a - 7], ARGV[a - 6], ARGV[a - 5],
    ARGV[a - 4], ARGV[a - 3], ARGV[a - 2], ARGV[a - 1], ARGV[a])
  if ok then
    out[2 * i - 1], out[2 * i] = status, count
  else
    out[2 * i - 1], out[2 * i] = -9, tostring(status)
  end
end
return out
