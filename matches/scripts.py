"""The Lua scripts of the match store (matches/store.py), each atomic on one Redis (one cluster slot: a match's keys
share its hash tag)."""

from __future__ import annotations

# Remember an act's first outcome in a match's idempotency hash (field "<seat>:<key>", value "<time>|<outcome>"),
# keeping at most `kept` records (the oldest other one goes) and the hash for ttl seconds after its last write.
_REMEMBER_FN = """
local function remember(key, field, value, ttl, kept)
  redis.call('HSET', key, field, value)
  if redis.call('HLEN', key) > tonumber(kept) then
    local all = redis.call('HGETALL', key)
    local oldest, at = nil, nil
    for i = 1, #all, 2 do
      local t = tonumber(string.match(all[i + 1], '^([^|]*)|')) or 0
      if all[i] ~= field and (at == nil or t < at) then oldest, at = all[i], t end
    end
    if oldest then redis.call('HDEL', key, oldest) end
  end
  redis.call('EXPIRE', key, tonumber(ttl))
end
"""

# Set when the service must next look at a match as of a version, unless a later version's time is there (writes
# from two versions may arrive in either order); due '' takes the match off the due-set.
_SET_DUE_FN = """
local function set_due(zkey, vkey, id, version, due)
  local known = tonumber(redis.call('HGET', vkey, id))
  if known and known > tonumber(version) then return 0 end
  if due == '' then
    redis.call('ZREM', zkey, id)
    redis.call('HDEL', vkey, id)
  else
    redis.call('ZADD', zkey, due, id)
    redis.call('HSET', vkey, id, version)
  end
  return 1
end
"""

# Store a new waiting match unless its id is taken (a rematch's id is claimed first, and any caller may create it);
# on one plain Redis, a listed match also enters the waiting lobby list (KEYS 3) in the same script.
# KEYS: meta, state[, waiting lobby list]; ARGV: meta fields (a JSON object of strings), state data, ttl[, now,
# match id]. Returns 1, or 0 if it exists.
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for name, value in pairs(cjson.decode(ARGV[1])) do redis.call('HSET', KEYS[1], name, value) end
redis.call('HSET', KEYS[2], 'v', 0, 'data', ARGV[2])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[3]))
if #KEYS > 2 then redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5]) end
return 1
"""

# Commit one step if the version is still the one the step was computed from: state, log entry, events (the stream
# trimmed to the newest steps), meta, the seat records the step changes, the idempotency outcome; on one plain
# Redis also the due-set (KEYS 7-8) and, for a step that ends the match (given only then), its finished-match
# outbox entry and its move from the active to the finished lobby list (KEYS 9-11).
# KEYS: state, log, events, meta, seats, idempotency hash[, due-set, due versions, finished outbox, active lobby
# list, finished lobby list].
# ARGV: 1 version, 2 data, 3 log entry, 4 events, 5 status, 6 idempotency field ('': none), 7 its record,
# 8 idempotency ttl, 9 records kept, 10 expire-after (0: keep), 11 more meta fields (JSON object of strings),
# 12 stream length kept, 13 match id, 14 due time ('': off the due-set; only with the due keys), 15 seat records
# to write (JSON object of seat -> record text; '{}': none), 16 now (for a step that ends the match), 17 listed
# ('1': in the lobby lists).
# Returns {1, new version, log length} or {0, stored version, 0}.
COMMIT = _REMEMBER_FN + _SET_DUE_FN + """
local v = tonumber(redis.call('HGET', KEYS[1], 'v'))
if v ~= tonumber(ARGV[1]) then return {0, v or -1, 0} end
local nv = v + 1
redis.call('HSET', KEYS[1], 'v', nv, 'data', ARGV[2])
local n = redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('XADD', KEYS[3], 'MAXLEN', tonumber(ARGV[12]), nv .. '-0', 'events', ARGV[4])
redis.call('HSET', KEYS[4], 'status', ARGV[5], 'version', nv)
for name, value in pairs(cjson.decode(ARGV[11])) do redis.call('HSET', KEYS[4], name, value) end
for seat, record in pairs(cjson.decode(ARGV[15])) do redis.call('HSET', KEYS[5], seat, record) end
if ARGV[6] ~= '' then remember(KEYS[6], ARGV[6], ARGV[7], ARGV[8], ARGV[9]) end
local ttl = tonumber(ARGV[10])
if ttl > 0 then
  for i = 1, 5 do redis.call('EXPIRE', KEYS[i], ttl) end
end
if #KEYS > 6 then
  set_due(KEYS[7], KEYS[8], ARGV[13], nv, ARGV[14])
  if #KEYS > 8 then
    redis.call('ZADD', KEYS[9], 'NX', ARGV[16], ARGV[13])
    if ARGV[17] == '1' then
      redis.call('ZREM', KEYS[10], ARGV[13])
      redis.call('ZADD', KEYS[11], ARGV[16], ARGV[13])
    end
  end
end
return {1, nv, n}
"""

# Remember a refused act's outcome unless one is there; return the record that holds. KEYS: idempotency hash;
# ARGV: field, record, ttl, records kept.
REMEMBER = _REMEMBER_FN + """
local known = redis.call('HGET', KEYS[1], ARGV[1])
if known then return known end
remember(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
return ARGV[2]
"""

# On the queue Redis: set a match's due time as of a version. KEYS: due-set, due versions; ARGV: match id, version,
# due time ('': off the due-set).
SET_DUE = _SET_DUE_FN + """
return set_due(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3])
"""

# On one plain Redis: set a match's due time as of a version unless the match has moved on from it. KEYS: due-set,
# due versions, state; ARGV: match id, version, due time ('': off the due-set). Returns 1, or 0 (moved on, or a
# later version's due time is there).
RESCHEDULE = _SET_DUE_FN + """
if tonumber(redis.call('HGET', KEYS[3], 'v')) ~= tonumber(ARGV[2]) then return 0 end
return set_due(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3])
"""

# Read a match in one round trip, as one snapshot: meta, seats, state, or a finished match's archive; with KEYS 5,
# its log too. KEYS: meta, seats, state, archive[, log].
LOAD = """
local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then return {meta, {}, {}, redis.call('GET', KEYS[4]) or '', {}} end
local log = {}
if #KEYS > 4 then log = redis.call('LRANGE', KEYS[5], 0, -1) end
return {meta, redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3]), '', log}
"""

# A match's status, an archived one's included. KEYS: meta, archive.
STATUS = """
local status = redis.call('HGET', KEYS[1], 'status')
if status then return status end
if redis.call('EXISTS', KEYS[2]) == 1 then return 'over' end
return false
"""

# The stored steps after a version and the match's version (-1: no live state). KEYS: events, state; ARGV: after,
# count.
EVENTS = """
local rows = redis.call('XRANGE', KEYS[1], '(' .. ARGV[1] .. '-0', '+', 'COUNT', tonumber(ARGV[2]))
return {rows, tonumber(redis.call('HGET', KEYS[2], 'v') or -1)}
"""

# Fold the log's oldest plain entries into packed chunks, unless another process did. KEYS: log; ARGV: chunks
# before the plain entries, plain entries folded, then the packed chunks.
FOLD = """
local c = tonumber(ARGV[1])
local n = tonumber(ARGV[2])
local head = redis.call('LINDEX', KEYS[1], c)
if not head or string.sub(head, 1, 1) ~= '{' or redis.call('LLEN', KEYS[1]) < c + n then return 0 end
if c > 0 and string.sub(redis.call('LINDEX', KEYS[1], c - 1), 1, 2) ~= 'z:' then return 0 end
local rest = redis.call('LRANGE', KEYS[1], c + n, -1)
if c == 0 then redis.call('DEL', KEYS[1]) else redis.call('LTRIM', KEYS[1], 0, c - 1) end
for i = 3, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
for i = 1, #rest do redis.call('RPUSH', KEYS[1], rest[i]) end
return 1
"""

# Replace a finished match's keys by one packed archive with the same time to live, unless it changed meanwhile.
# KEYS: meta, seats, state, log, events, archive; ARGV: version, archive.
ARCHIVE = """
if redis.call('HGET', KEYS[1], 'status') ~= 'over' then return 0 end
if tonumber(redis.call('HGET', KEYS[3], 'v')) ~= tonumber(ARGV[1]) then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('SET', KEYS[6], ARGV[2], 'PX', ttl) else redis.call('SET', KEYS[6], ARGV[2]) end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
return 1
"""

# Claim a seat of a waiting match. KEYS: meta, seats, state, log, events; ARGV: seat (-1: first free), seat
# record, seat count, now, waiting ttl, the record's player ('' for none)[, match id, look-soon time, listed ('1':
# in the lobby lists)]. A player holds at most one seat of a match: a claim for a player already seated answers
# {-3, 0} and changes nothing. The claim that fills the match starts it (meta "started": now, kept for the
# archive): its clocks and abandonment time count from now, and its keys stop expiring (the caller wrote a due
# entry "look soon" before, and sets the exact due time after), and it answers the started match's meta, seats and
# state too; a claim that does not fill it gives the seats the waiting match's time to live. On one plain Redis
# (KEYS 6-8: due-set, waiting and active lobby lists) the due entry "look soon" of a claim, and a listed match's
# move from the waiting to the active lobby list when it starts, are written in the same script.
CLAIM = """
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' then return {-1, 0} end
local n = tonumber(ARGV[3])
local seat = tonumber(ARGV[1])
if ARGV[6] and ARGV[6] ~= '' then
  for _, record in ipairs(redis.call('HVALS', KEYS[2])) do
    if cjson.decode(record)['player'] == ARGV[6] then return {-3, 0} end
  end
end
if seat < 0 then
  for s = 0, n - 1 do
    if redis.call('HSETNX', KEYS[2], s, ARGV[2]) == 1 then seat = s; break end
  end
  if seat < 0 then return {-2, 0} end
elseif redis.call('HSETNX', KEYS[2], seat, ARGV[2]) == 0 then
  return {-2, 0}
end
if #KEYS > 5 then redis.call('ZADD', KEYS[6], 'LT', ARGV[8], ARGV[7]) end
if redis.call('HLEN', KEYS[2]) == n then
  redis.call('HSET', KEYS[1], 'status', 'active', 'at', ARGV[4], 'lastHuman', ARGV[4], 'started', ARGV[4])
  for i = 1, 5 do redis.call('PERSIST', KEYS[i]) end
  if #KEYS > 5 and ARGV[9] == '1' then
    redis.call('ZREM', KEYS[7], ARGV[7])
    redis.call('ZADD', KEYS[8], ARGV[4], ARGV[7])
  end
  return {seat, 1, redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3])}
end
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[5]))
return {seat, 0}
"""

# Free a person's seat of a waiting match, if the seat still holds that person (by token hash). KEYS: meta, seats;
# ARGV: seat, token hash. Returns 1, -1 (the match is no longer waiting) or -2 (the seat is not that person's).
LEAVE = """
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' then return -1 end
local stored = redis.call('HGET', KEYS[2], ARGV[1])
if not stored or cjson.decode(stored)['tokenHash'] ~= ARGV[2] then return -2 end
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
"""

# Call off a waiting match: status over, reason cancelled, its keys kept for the finished match's time to live.
# KEYS: meta, seats, state; ARGV: reason, ttl, now. Returns 1, or 0 when the match is no longer waiting.
CANCEL = """
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'over', 'reason', ARGV[1], 'at', ARGV[3])
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], tonumber(ARGV[2])) end
return 1
"""
