-- adjust v1: apply a committed credit/debit to the mirror, only if the mirror exists (an absent
-- mirror is loaded from Postgres later, which already includes the movement).
-- KEYS[1] account hash  ARGV[1] delta (micro-USD, signed)   Returns 1 if applied, else 0.
if redis.call('HEXISTS', KEYS[1], 'balance') == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], 'balance', ARGV[1])
return 1
