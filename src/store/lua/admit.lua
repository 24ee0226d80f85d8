-- admit v11: for each call of a batch, the per-key rate windows (requests and tokens), its calls
-- in flight, the credit reservation and its lease, atomically per call. Admissions issued in the
-- same event-loop turn share one round trip (src/store/turn-batch.ts), checked and applied in the
-- order they were issued: on a cluster those of one shard (one slot), on a single Redis those of
-- every shard, as one group per shard.
-- ARGV[1] window ttl (ms). Then per group, in order: KEYS lease deadlines {s<n>}:leases (zset) and
-- lease data {s<n>}:lease (hash); ARGV the group's number of calls. Then per call of the group its
-- keys and its arguments. A call of a key without tpm or maxConcurrent sends 2 keys and 8
-- arguments; one with either (`limited`) 4 and 12:
--   keys  account hash {s<n>}:acct:<userId> (fields balance, reserved, key:<spendKey>: the key's
--           spend and reservations; spendKey: the key id, or key id @ period start,
--           billing/spend-period.ts)
--         request window counter {s<n>}:rl:<keyId>:<windowIndex>
--         limited: token window counter {s<n>}:tpm:<keyId>:<windowIndex>,
--                  the key's calls in flight {s<n>}:conc:<keyId> (set of lease ids)
--   args  [0] the key's field key:<spendKey>  [1] rpm  [2] reserve (micro-USD)
--         [3] key limit (micro-USD, -1 = none)  [4] lease id ('' = no lease)
--         [5] lease deadline (epoch ms)
--         [6] lease data "userId<TAB>spendKey<TAB>reserve<TAB>abandon cost<TAB>abandon record"
--         [7] '1' limited, '0' not
--         limited: [8] tpm (-1 = none)  [9] tokens reserved  [10] max concurrent (-1 = none)
--                  [11] now (epoch ms)
-- Returns {status, requests, tokens} per call, flattened: status 1 admitted, 0 rate limited, -1
-- cold (load and retry), -2 balance short (it must cover the call's reservation and, twice over,
-- the reservations in flight: src/store/balance-cover.ts, docs/operations.md "Overdraft"), -3 key limit short, -4 over tpm, -5 over maxConcurrent;
-- requests and tokens are the windows' counts after the call (before it when refused); -9 when
-- this call's own step failed (requests is then the error text), which leaves the other calls of
-- the batch as they are. Nothing is written for a call unless it is admitted, but leases of the
-- key that ended are dropped from its in-flight set.

-- The key's calls in flight: members whose lease is live (settled, swept or expired ones leave).
-- Their deadlines are read with one ZMSCORE per 1,000 members, not one ZSCORE each.
local function inFlight(leases, concKey, now)
  local ids = redis.call('SMEMBERS', concKey)
  local n, ended = 0, {}
  for from = 1, #ids, 1000 do
    local to = math.min(from + 999, #ids)
    local deadlines = redis.call('ZMSCORE', leases, unpack(ids, from, to))
    for i = from, to do
      local deadline = deadlines[i - from + 1]
      if deadline and tonumber(deadline) > now then n = n + 1 else ended[#ended + 1] = ids[i] end
    end
  end
  for from = 1, #ended, 1000 do redis.call('SREM', concKey, unpack(ended, from, math.min(from + 999, #ended))) end
  return n
end

-- Everything but the request window: the call's checks, then what an admitted call holds.
-- `a` is the index of the call's first argument; `tokenKey` and `concKey` are nil unless limited.
local function decide(shard, acctKey, tokenKey, concKey, a, count)
  local keyField, reserveArg, lease = ARGV[a], ARGV[a + 2], ARGV[a + 4]
  local tpm, tokens, maxConcurrent = -1, 0, -1
  if tokenKey then tpm, tokens, maxConcurrent = tonumber(ARGV[a + 8]), tonumber(ARGV[a + 9]), tonumber(ARGV[a + 10]) end
  local used = 0
  if tpm >= 0 then used = tonumber(redis.call('GET', tokenKey) or '0') end
  if count > tonumber(ARGV[a + 1]) then return 0, used end
  if tpm >= 0 and used + tokens > tpm then return -4, used end
  if maxConcurrent >= 0 and inFlight(shard.leases, concKey, tonumber(ARGV[a + 11])) >= maxConcurrent then return -5, used end
  local acct = redis.call('HMGET', acctKey, 'balance', 'reserved', keyField)
  if not acct[1] or not acct[3] then return -1, used end
  local reserve = tonumber(reserveArg)
  if tonumber(acct[1]) - 2 * tonumber(acct[2] or '0') < reserve then return -2, used end
  local limit = tonumber(ARGV[a + 3])
  if limit >= 0 and tonumber(acct[3]) + reserve > limit then return -3, used end
  if tpm >= 0 and tokens > 0 then
    used = redis.call('INCRBY', tokenKey, tokens)
    if used == tokens then redis.call('PEXPIRE', tokenKey, ARGV[1]) end
  end
  if reserve > 0 then
    redis.call('HINCRBY', acctKey, 'reserved', reserveArg)
    redis.call('HINCRBY', acctKey, keyField, reserveArg)
  end
  if lease ~= '' then
    redis.call('ZADD', shard.leases, ARGV[a + 5], lease)
    redis.call('HSET', shard.leaseData, lease, ARGV[a + 6])
    if maxConcurrent >= 0 then redis.call('SADD', concKey, lease) end
  end
  return 1, used
end

-- The request window is counted first, with no read before it (INCR answers the count), and
-- given back when the call is refused or its step fails (`counted`: the loop below gives it back
-- then, so a call's step runs under one pcall).
local counted = nil
local function admit(shard, acctKey, windowKey, tokenKey, concKey, a)
  local count = redis.call('INCR', windowKey)
  counted = windowKey
  if count == 1 then redis.call('PEXPIRE', windowKey, ARGV[1]) end
  local status, used = decide(shard, acctKey, tokenKey, concKey, a, count)
  if status == 1 then return 1, count, used end
  counted = nil
  redis.call('DECR', windowKey)
  return status, count - 1, used
end

local out = {}
local k, a, o = 1, 2, 0
while a <= #ARGV do
  local shard = { leases = KEYS[k], leaseData = KEYS[k + 1] }
  local n = tonumber(ARGV[a])
  k, a = k + 2, a + 1
  for _ = 1, n do
    local tokenKey, concKey = nil, nil
    local limited = ARGV[a + 7] == '1'
    if limited then tokenKey, concKey = KEYS[k + 2], KEYS[k + 3] end
    counted = nil
    local ok, status, count, used = pcall(admit, shard, KEYS[k], KEYS[k + 1], tokenKey, concKey, a)
    if ok then
      out[o + 1], out[o + 2], out[o + 3] = status, count, used
    else
      if counted then redis.call('DECR', counted) end
      out[o + 1], out[o + 2], out[o + 3] = -9, tostring(type(status) == 'table' and status.err or status), 0
    end
    o = o + 3
    if limited then k, a = k + 4, a + 12 else k, a = k + 2, a + 8 end
  end
end
return out
