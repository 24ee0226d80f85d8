-- load v3: mirror an account unless already present, made whole with what Postgres does not hold
-- yet (docs/operations.md "Reloading a mirror"). The caller holds the account's Postgres row, so
-- no record appended after its outbox read can be in Postgres yet: each is taken off here.
-- KEYS[1] account hash {s<n>}:acct:<userId>   KEYS[2] outbox stream {s<n>}:outbox
-- KEYS[3] lease data {s<n>}:lease
-- ARGV[1] userId  ARGV[2] keyId  ARGV[3] balance (micro-USD)  ARGV[4] key spent (micro-USD)
-- ARGV[5] the outbox position the caller's read reached ('0-0' = none read)
-- ARGV[6] the field the key's spend is counted under: its spendKey (billing/spend-period.ts)
-- Returns 1 when something was set, 0 when the balance and the key's spend were both present.
-- The balance and the key's spend are each set only if absent. A new balance comes with the
-- reservations of the account's live leases (their settlements will release them).
local acct, userId, keyId, spendKey = KEYS[1], ARGV[1], ARGV[2], ARGV[6]
local newAccount = redis.call('HSETNX', acct, 'balance', ARGV[3]) == 1
local newKey = redis.call('HSETNX', acct, 'kspent:' .. spendKey, ARGV[4]) == 1
if not newAccount and not newKey then return 0 end

if newAccount then
  redis.call('HSET', acct, 'reserved', '0')
  local prefix = userId .. '\t'
  local leases = redis.call('HGETALL', KEYS[3])
  for i = 2, #leases, 2 do
    local data = leases[i]
    if string.sub(data, 1, #prefix) == prefix then
      local key, reserve = string.match(data, '^[^\t]*\t([^\t]*)\t([^\t]*)\t')
      if reserve and reserve ~= '0' then
        redis.call('HINCRBY', acct, 'reserved', reserve)
        redis.call('HINCRBY', acct, 'kres:' .. key, reserve)
      end
    end
  end
end

-- A key's new period: the counts of its earlier periods that hold no reservation are dropped (a
-- call of an earlier period still in flight keeps its period's count until it settles).
if newKey and string.find(spendKey, '@', 1, true) then
  local prefix = 'kspent:' .. keyId .. '@'
  for _, field in ipairs(redis.call('HKEYS', acct)) do
    if field ~= 'kspent:' .. spendKey and string.sub(field, 1, #prefix) == prefix then
      local period = string.sub(field, 8)
      if tonumber(redis.call('HGET', acct, 'kres:' .. period) or '0') == 0 then redis.call('HDEL', acct, field, 'kres:' .. period) end
    end
  end
end

-- Records appended after the caller's read: the fields store/outbox-call.ts reads.
local marker = '"userId":"' .. userId .. '"'
for _, entry in ipairs(redis.call('XRANGE', KEYS[2], '(' .. ARGV[5], '+')) do
  local record = entry[2][2]
  if record and string.find(record, marker, 1, true) then
    local ok, r = pcall(cjson.decode, record)
    if ok and type(r) == 'table' and r.userId == userId and type(r.cost) == 'string'
      and string.match(r.cost, '^%d+$') and r.cost ~= '0' then
      if newAccount then redis.call('HINCRBY', acct, 'balance', '-' .. r.cost) end
      if newKey and r.keyId == keyId then redis.call('HINCRBY', acct, 'kspent:' .. spendKey, r.cost) end
    end
  end
end
return 1
