/**
 * The Lua scripts of the Redis episode store. Each runs atomically in Redis,
 * so every change to an episode, the episode list and the sessions is one
 * step no other replica can interleave with. ARGV[1] is the key prefix
 * `apptwin:v1:{<bundle digest>}:` (one hash tag: every key of a bundle in one
 * slot); no script declares KEYS, so the store needs a standalone Redis (or
 * one primary) — see docs/specs/serve.
 *
 * Keys under the prefix:
 *   eps           ZSET   episode id → use counter (least recently used first)
 *   use           STRING the use counter
 *   stats         HASH   n (episode-<n>), inc (incarnations), evictions, last (JSON)
 *   gone          HASH   evicted or expired id → JSON (the latest 10,000; gone:order ranks them)
 *   sess          SET    live MCP session ids (stale ones dropped as found)
 *   e:<id>        HASH   seed, inc (which creation of the id), gen (resets)
 *   l:<id>        LIST   the episode's deltas since its last reset, in order (JSON)
 *   b:<id>        SET    MCP sessions bound to the episode
 *   s:<sid>       HASH   episode, owns — expires after the idle time
 */

const COMMON = `
local P = ARGV[1]
local function ekey(id) return P .. 'e:' .. id end
local function lkey(id) return P .. 'l:' .. id end
local function bkey(id) return P .. 'b:' .. id end
local function skey(sid) return P .. 's:' .. sid end
local function live(id) return redis.call('EXISTS', ekey(id)) == 1 end
local function remember(id, json)
  redis.call('HSET', P .. 'gone', id, json)
  redis.call('ZADD', P .. 'gone:order', redis.call('INCR', P .. 'use'), id)
  local n = redis.call('ZCARD', P .. 'gone:order')
  if n > 10000 then
    for _, old in ipairs(redis.call('ZRANGE', P .. 'gone:order', 0, n - 10001)) do
      redis.call('HDEL', P .. 'gone', old)
    end
    redis.call('ZREMRANGEBYRANK', P .. 'gone:order', 0, n - 10001)
  end
end
local function expired(id, ttl)
  redis.call('ZREM', P .. 'eps', id)
  redis.call('DEL', lkey(id), bkey(id))
  remember(id, '{"expired":true,"episode":"' .. id .. '","ttl_ms":' .. ttl .. '}')
end
-- An episode the store does not hold: {'gone', why} when it was evicted or expired (an expiry found now is noted), else {'missing'}.
local function absent(id, ttl)
  if redis.call('ZSCORE', P .. 'eps', id) then expired(id, ttl) end
  local gone = redis.call('HGET', P .. 'gone', id)
  if gone then return {'gone', gone} end
  return {'missing'}
end
local function bound(id)
  local any = false
  for _, sid in ipairs(redis.call('SMEMBERS', bkey(id))) do
    if redis.call('EXISTS', skey(sid)) == 1 then
      any = true
    else
      redis.call('SREM', bkey(id), sid)
      redis.call('SREM', P .. 'sess', sid)
    end
  end
  return any
end
local function touch(id, ttl)
  redis.call('ZADD', P .. 'eps', redis.call('INCR', P .. 'use'), id)
  if ttl > 0 and id ~= 'default' then
    redis.call('PEXPIRE', ekey(id), ttl)
    redis.call('PEXPIRE', lkey(id), ttl)
    redis.call('PEXPIRE', bkey(id), ttl)
  end
end
local function sweep(ttl)
  for _, id in ipairs(redis.call('ZRANGE', P .. 'eps', 0, -1)) do
    if not live(id) then expired(id, ttl) end
  end
  return redis.call('ZCARD', P .. 'eps')
end
local function bind(sid, id, owns, idle, ttl)
  redis.call('HSET', skey(sid), 'episode', id, 'owns', owns)
  redis.call('PEXPIRE', skey(sid), idle)
  redis.call('SADD', bkey(id), sid)
  redis.call('SADD', P .. 'sess', sid)
  touch(id, ttl)
end
`;

/** ARGV: P, id ('' = episode-<n>), seed, max, ttl, session ('' = none), idle → {'ok', id, inc, evicted JSON or ''} | {'exists', id} | {'full'}. */
export const CREATE = `${COMMON}
local id, seed, max, ttl, sid, idle = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6], tonumber(ARGV[7])
if id == '' then
  repeat id = 'episode-' .. redis.call('HINCRBY', P .. 'stats', 'n', 1) until not live(id)
elseif live(id) then
  return {'exists', id}
end
redis.call('ZREM', P .. 'eps', id)
local evicted = ''
if redis.call('ZCARD', P .. 'eps') >= max and sweep(ttl) >= max then
  for _, old in ipairs(redis.call('ZRANGE', P .. 'eps', 0, -1)) do
    if old ~= 'default' and not bound(old) then
      redis.call('DEL', ekey(old), lkey(old), bkey(old))
      redis.call('ZREM', P .. 'eps', old)
      evicted = '{"episode":"' .. old .. '","evicted_for":"' .. id .. '","limit":' .. max .. '}'
      remember(old, evicted)
      redis.call('HINCRBY', P .. 'stats', 'evictions', 1)
      redis.call('HSET', P .. 'stats', 'last', evicted)
      break
    end
  end
  if evicted == '' then return {'full'} end
end
local inc = redis.call('HINCRBY', P .. 'stats', 'inc', 1)
redis.call('DEL', lkey(id), bkey(id))
redis.call('HSET', ekey(id), 'seed', seed, 'inc', inc, 'gen', 0)
redis.call('HDEL', P .. 'gone', id)
redis.call('ZREM', P .. 'gone:order', id)
touch(id, ttl)
if sid ~= '' then bind(sid, id, 1, idle, ttl) end
return {'ok', id, tostring(inc), evicted}
`;

/**
 * ARGV: P, id, inc, gen, len (what the replica holds), ttl → {'ok', seed, inc, gen, from, deltas from `from`} |
 * {'gone', JSON} | {'missing'}. `from` is the replica's len when it holds this incarnation and reset, else 0.
 */
export const SYNC = `${COMMON}
local id, ttl = ARGV[2], tonumber(ARGV[6])
local meta = redis.call('HMGET', ekey(id), 'seed', 'inc', 'gen')
if not meta[1] then return absent(id, ttl) end
touch(id, ttl)
local from = 0
if meta[2] == ARGV[3] and meta[3] == ARGV[4] then from = tonumber(ARGV[5]) end
return {'ok', meta[1], meta[2], meta[3], from, redis.call('LRANGE', lkey(id), from, -1)}
`;

/**
 * ARGV: P, id, inc, gen, len, delta JSON, ttl → {'ok'} | {'conflict', seed, inc, gen, 0, every delta} |
 * {'gone', JSON} | {'missing'}: appends only onto exactly that state. A refused commit carries what SYNC from
 * nothing would (the replica's copy ran the step ahead of the store, so it is rebuilt whole), saving the round trip.
 */
export const COMMIT = `${COMMON}
local id, ttl = ARGV[2], tonumber(ARGV[7])
local meta = redis.call('HMGET', ekey(id), 'seed', 'inc', 'gen')
if not meta[1] then return absent(id, ttl) end
touch(id, ttl)
if meta[2] ~= ARGV[3] or meta[3] ~= ARGV[4] or redis.call('LLEN', lkey(id)) ~= tonumber(ARGV[5]) then
  return {'conflict', meta[1], meta[2], meta[3], 0, redis.call('LRANGE', lkey(id), 0, -1)}
end
redis.call('RPUSH', lkey(id), ARGV[6])
return {'ok'}
`;

/** ARGV: P, id, ttl → {'ok'} | {'missing'}: drops the deltas, a new gen. */
export const RESET = `${COMMON}
local id, ttl = ARGV[2], tonumber(ARGV[3])
if not live(id) then return {'missing'} end
redis.call('DEL', lkey(id))
redis.call('HINCRBY', ekey(id), 'gen', 1)
touch(id, ttl)
return {'ok'}
`;

/** ARGV: P, ttl → the live episode ids (expired ones forgotten as found). */
export const IDS = `${COMMON}
sweep(tonumber(ARGV[2]))
return redis.call('ZRANGE', P .. 'eps', 0, -1)
`;

/** ARGV: P, ttl → {episodes, sessions, evictions, last JSON or ''}. */
export const HEALTH = `${COMMON}
local n = sweep(tonumber(ARGV[2]))
local sessions = 0
for _, sid in ipairs(redis.call('SMEMBERS', P .. 'sess')) do
  if redis.call('EXISTS', skey(sid)) == 1 then sessions = sessions + 1 else redis.call('SREM', P .. 'sess', sid) end
end
local stats = redis.call('HMGET', P .. 'stats', 'evictions', 'last')
return {n, sessions, tonumber(stats[1] or '0'), stats[2] or ''}
`;

/** ARGV: P, session, episode, idle, ttl → {'ok'} | {'missing'}: binds a new session to an existing episode. */
export const OPEN_SESSION = `${COMMON}
if not live(ARGV[3]) then return {'missing'} end
bind(ARGV[2], ARGV[3], 0, tonumber(ARGV[4]), tonumber(ARGV[5]))
return {'ok'}
`;

/** ARGV: P, session, idle → {'ok', episode, owns} | {'missing'}; the idle time starts again. */
export const LOOKUP_SESSION = `${COMMON}
local b = redis.call('HMGET', skey(ARGV[2]), 'episode', 'owns')
if not b[1] then return {'missing'} end
redis.call('PEXPIRE', skey(ARGV[2]), tonumber(ARGV[3]))
return {'ok', b[1], b[2]}
`;

/** ARGV: P, session, ttl → {'ok'}: the session ends; its episode stays and counts as just used. */
export const END_SESSION = `${COMMON}
local id = redis.call('HGET', skey(ARGV[2]), 'episode')
redis.call('DEL', skey(ARGV[2]))
redis.call('SREM', P .. 'sess', ARGV[2])
if id then
  redis.call('SREM', bkey(id), ARGV[2])
  if live(id) then touch(id, tonumber(ARGV[3])) end
end
return {'ok'}
`;
