package redis

import goredis "github.com/redis/go-redis/v9"

// Scripts run atomically on the server. Each touches only keys of one hash
// slot, so they run unchanged on a Cluster. Script.Run sends EVALSHA and
// falls back to EVAL the first time a server lacks the script (also after a
// restart).

// createGame: KEYS[1] game; ARGV json, active flag, token, hinted, deadline,
// finished games' lifetime (see updateGame). Returns 1 created, 0 id taken. A retry of the same call
// (same token, no write since) returns 1 again.
var createGame = goredis.NewScript(`
local cur = redis.call('HMGET', KEYS[1], 'v', 'w')
if cur[1] then
  if cur[2] == ARGV[3] then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'v', '1', 'a', ARGV[2], 'w', ARGV[3], 'd', ARGV[1], 'h', ARGV[4], 'dl', ARGV[5])
if ARGV[2] == '0' and ARGV[6] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[6]) end
return 1
`)

// updateGame: KEYS[1] game; ARGV expected version, new version, json, active
// flag, token, hinted (what the game's index entries are keyed by: its chat
// and people), deadline (unix ms, "" for none), "1" if the caller has just
// added the index hints for this state, and how many milliseconds a game
// written finished is kept ("0": for ever). Returns 1 written, 0 version
// differs, -1 no such game, -2 a finished game would become active, 2 hints
// needed first. A retry of the same call (the stored version is the new one
// and carries this call's token) returns 1.
//
// The stored 'h' and 'dl' say which hints the stored state was written
// with. A game needs its hints added before a write only if it is active
// and its chat or people changed, or its deadline (a finished game's: its
// ShowAt, see GameRecord.Due) comes earlier than the stored one (ZADD LT
// would lower the entry); otherwise the entries in place already
// satisfy the rules in index.go, and the write saves two round trips. A
// game stored without 'h' (written before these fields) always asks.
var updateGame = goredis.NewScript(`
local cur = redis.call('HMGET', KEYS[1], 'v', 'a', 'w', 'h', 'dl')
if not cur[1] then return -1 end
if cur[1] ~= ARGV[1] then
  if cur[1] == ARGV[2] and cur[3] == ARGV[5] then return 1 end
  return 0
end
if cur[2] == '0' and ARGV[4] == '1' then return -2 end
if ARGV[8] ~= '1' then
  if ARGV[4] == '1' and cur[4] ~= ARGV[6] then return 2 end
  if ARGV[7] ~= '' and (not cur[5] or cur[5] == '' or tonumber(ARGV[7]) < tonumber(cur[5])) then return 2 end
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'a', ARGV[4], 'w', ARGV[5], 'd', ARGV[3], 'h', ARGV[6], 'dl', ARGV[7])
if ARGV[4] == '0' and ARGV[9] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[9]) end
return 1
`)

// repairDeadline: KEYS[1] deadlines; ARGV id, score the reader saw, new
// score or "" to remove. Changes the entry only if it still has the score
// the reader saw, so a reader never undoes a writer's newer entry.
var repairDeadline = goredis.NewScript(`
local cur = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not cur or tonumber(cur) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
`)

// putUser: KEYS[1] user (a string: the User as JSON, with "v" its version
// and "w" the token of the write that stored it); ARGV expected version,
// new version, json, token. Returns {1, old username} written (or already
// written by this token: a retry after a lost reply, whose old username
// is then the one it wrote), {0, ""} the version differs. A record stored
// before users had versions has no "v": version 0.
var putUser = goredis.NewScript(`
local cur = redis.call('GET', KEYS[1])
local v, w, name = 0, false, ''
if cur then
  local u = cjson.decode(cur)
  if type(u.v) == 'number' then v = u.v end
  w = u.w
  if type(u.username) == 'string' then name = u.username end
end
if v ~= tonumber(ARGV[1]) then
  if v == tonumber(ARGV[2]) and w == ARGV[4] then return {1, name} end
  return {0, ''}
end
redis.call('SET', KEYS[1], ARGV[3])
return {1, name}
`)

// setStanding: KEYS[1] rank, KEYS[2] lines (the scope's; see putUser for
// "v" and "w" in a line's JSON); ARGV member, expected version, new
// version, json, token, rank score. Writes the line and its rank together
// and returns 1 (or 1 for a retry of this token's write after a lost
// reply), 0 the version differs. A line stored before lines had versions
// has no "v": version 0.
var setStanding = goredis.NewScript(`
local cur = redis.call('HGET', KEYS[2], ARGV[1])
local v, w = 0, false
if cur then
  local st = cjson.decode(cur)
  if type(st.v) == 'number' then v = st.v end
  w = st.w
end
if v ~= tonumber(ARGV[2]) then
  if v == tonumber(ARGV[3]) and w == ARGV[5] then return 1 end
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[6], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
return 1
`)

// deleteIfEquals: KEYS[1]; ARGV value. Deletes the key only if it holds
// value: a username's entry goes only if it still names this user.
var deleteIfEquals = goredis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`)

// top: KEYS[1] rank, KEYS[2] lines; ARGV n. The first n lines in rank order,
// read in one step so that order and lines agree.
var top = goredis.NewScript(`
local ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local out = {}
for i, id in ipairs(ids) do
  out[i] = redis.call('HGET', KEYS[2], id) or ''
end
return out
`)

// takeChallenge: KEYS[1] challenge, KEYS[2] its receipt; ARGV token. GETDEL
// that leaves a receipt for a minute, so that a retry of the same take
// (its reply lost) gets the challenge again instead of nothing, while any
// other taker gets nil.
var takeChallenge = goredis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[2], 't', ARGV[1], 'v', v)
  redis.call('PEXPIRE', KEYS[2], 60000)
  return v
end
local r = redis.call('HMGET', KEYS[2], 't', 'v')
if r[1] == ARGV[1] then return r[2] end
return false
`)

// markUpdate: KEYS[1] mark; ARGV token, ttl in ms, now in ms by the
// store's clock. The mark holds "token until": it counts as live until that
// time by the store's clock, whatever Redis's own clock says (its PX only
// frees the memory). Returns 1 if this call made the mark (or made it and
// is being retried), 0 if someone else's mark is live.
var markUpdate = goredis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v then
  local sep = string.find(v, ' ', 1, true)
  -- A mark written before marks carried their end lives until Redis
  -- drops it.
  local token, untilMs = v, math.huge
  if sep then
    token = string.sub(v, 1, sep - 1)
    untilMs = tonumber(string.sub(v, sep + 1)) or math.huge
  end
  if token == ARGV[1] then return 1 end
  if untilMs > tonumber(ARGV[3]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. (tonumber(ARGV[3]) + tonumber(ARGV[2])), 'PX', ARGV[2])
return 1
`)
