-- load v4: mirror an account unless already present, made whole with what Postgres does not hold
-- yet (docs/operations.md "Reloading a mirror"). The caller holds the account's Postgres row, so
-- no record appended after its outbox read can be in Postgres yet: each is taken off here.
-- KEYS[1] account hash {s<n>}:acct:<userId>   KEYS[2] outbox stream {s<n>}:outbox
-- KEYS[3] lease data {s<n>}:lease
-- ARGV[1] userId  ARGV[2] keyId  ARGV[3] balance (micro-USD)  ARGV[4] key spent (micro-USD)
-- ARGV[5] the outbox position the caller's read reached ('0-0' = none read)
-- ARGV[6] what the key's spend is counted under: its spendKey (billing/spend-period.ts)
-- Returns 1 when something was set, 0 when the balance and the key's field were both present.
-- The balance and the key's field key:<spendKey> (its spend and reservations) are each set only
-- if absent. Each comes with the reservations of the account's live leases it covers: a new
-- balance with all of them (as `reserved`), a new key field with those of its spendKey (their
-- settlements release what is held).
local acct, userId, keyId, spendKey = KEYS[1], ARGV[1], ARGV[2], ARGV[6]
local keyField = 'key:' .. spendKey
local newAccount = redis.call('HSETNX', acct, 'balance', ARGV[3]) == 1
local newKey = redis.call('HSETNX', acct, keyField, ARGV[4]) == 1
if not newAccount and not newKey then return 0 end

-- The account's live leases: the reservation each holds, by spendKey.
local held = {}
local prefix = userId .. '\t'
local leases = redis.call('HGETALL', KEYS[3])
for i = 2, #leases, 2 do
  local data = leases[i]
  if string.sub(data, 1, #prefix) == prefix then
    local key, reserve = string.match(data, '^[^\t]*\t([^\t]*)\t([^\t]*)\t')
    if reserve then held[key] = (held[key] or 0) + tonumber(reserve) end
  end
end

local function add(field, amount)
  if amount ~= 0 then redis.call('HINCRBY', acct, field, string.format('%d', amount)) end
end
if newAccount then
  redis.call('HSET', acct, 'reserved', '0')
  for _, reserve in pairs(held) do add('reserved', reserve) end
end
if newKey then
  add(keyField, held[spendKey] or 0)
  -- The key's spend and reservations as the scripts before load v4 kept them: no longer read.
  redis.call('HDEL', acct, 'kspent:' .. spendKey, 'kres:' .. spendKey)
end

-- A key's new period: the fields of its earlier periods that no live lease counts in are dropped
-- (a call of an earlier period still in flight keeps its period's field until it settles).
if newKey and string.find(spendKey, '@', 1, true) then
  local periods = 'key:' .. keyId .. '@'
  for _, field in ipairs(redis.call('HKEYS', acct)) do
    if field ~= keyField and string.sub(field, 1, #periods) == periods and not held[string.sub(field, 5)] then
      redis.call('HDEL', acct, field)
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
      if newKey and r.keyId == keyId then redis.call('HINCRBY', acct, keyField, r.cost) end
    end
  end
end
return 1
