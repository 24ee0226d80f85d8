-- ack v1: acknowledge outbox entries the ledger writer has written, and take them off the stream
-- (src/store/redis-outbox.ts). Every entry of the stream below the first one still pending, or
-- up to the last one delivered when none is, was delivered and acknowledged: those are trimmed
-- at once (XTRIM MINID drops whole nodes of the stream, where XDEL finds and marks each entry).
-- Acknowledged entries above the first pending one (another writer's, still pending below them)
-- are deleted one by one. Entries not yet delivered, and those still pending, stay.
-- KEYS[1] outbox stream {s<n>}:outbox   ARGV[1] consumer group   ARGV[2..] entry ids (delivered)
-- Returns the number acknowledged.
local stream, group = KEYS[1], ARGV[1]
local acked = 0
for i = 2, #ARGV, 1000 do
  acked = acked + redis.call('XACK', stream, group, unpack(ARGV, i, math.min(i + 999, #ARGV)))
end

local function parse(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end

local pending = redis.call('XPENDING', stream, group)
if pending[1] == 0 then
  -- Nothing pending: every entry up to the last delivered (these ids among them) is acknowledged.
  for _, g in ipairs(redis.call('XINFO', 'GROUPS', stream)) do
    local name, last
    for j = 1, #g, 2 do
      if g[j] == 'name' then name = g[j + 1] elseif g[j] == 'last-delivered-id' then last = g[j + 1] end
    end
    local ms, seq = parse(last or '')
    if name == group and ms then redis.call('XTRIM', stream, 'MINID', string.format('%d-%d', ms, seq + 1)) end
  end
  return acked
end

local ms, seq = parse(pending[2])
redis.call('XTRIM', stream, 'MINID', pending[2])
local above = {}
for i = 2, #ARGV do
  local m, s = parse(ARGV[i])
  if m and (m > ms or (m == ms and s > seq)) then above[#above + 1] = ARGV[i] end
end
for i = 1, #above, 1000 do redis.call('XDEL', stream, unpack(above, i, math.min(i + 999, #above))) end
return acked
