// The Lua scripts that keep the shared records atomic in Redis. The rate window follows exactly the
// rules of window.ts (one process's record), on Redis's clock so that replicas on machines whose
// clocks differ still agree on when a window ends.
import { MAX_WAITING_PER_SHARE, PLACE_TTL_MS } from "./fair-line.js";
import { MAX_PAUSE_MS, PAUSE_WINDOWS } from "./window.js";

/** Loads the window record of KEYS[1] (defaults ARGV[1] requests per ARGV[2] ms) and Redis's time. */
const LOAD_WINDOW = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local f = redis.call('HMGET', KEYS[1], 'capacity', 'windowMs', 'endsAt', 'used', 'confirmed', 'pausedUntil', 'openedAt', 'answered', 'leftSeen', 'probing')
local w = {
  capacity = tonumber(f[1]) or tonumber(ARGV[1]),
  windowMs = tonumber(f[2]) or tonumber(ARGV[2]),
  endsAt = tonumber(f[3]) or 0,
  used = tonumber(f[4]) or 0,
  confirmed = f[5] == '1',
  pausedUntil = tonumber(f[6]) or 0,
  openedAt = tonumber(f[7]) or 0,
  answered = tonumber(f[8]) or 0,
  leftSeen = tonumber(f[9]) or -1,
  probing = f[10] == '1',
}
local function save()
  redis.call('HSET', KEYS[1], 'capacity', w.capacity, 'windowMs', w.windowMs, 'endsAt', w.endsAt,
    'used', w.used, 'confirmed', w.confirmed and '1' or '0', 'pausedUntil', w.pausedUntil, 'openedAt', w.openedAt,
    'answered', w.answered, 'leftSeen', w.leftSeen, 'probing', w.probing and '1' or '0')
  -- Kept a while past its window, so that an idle credential's record goes away by itself.
  redis.call('PEXPIRE', KEYS[1], math.max(w.endsAt - now, 0) + 2 * w.windowMs + 60000)
end
`;

/**
 * fair-line.ts FairLine.ask on the window of KEYS[1] (window.ts roomOf and takeSlot): {milliseconds to
 * wait (0: counted), ticket, 1 when refused, when to ask again}. KEYS[2..5]: the line (sorted set, tag as score, members
 * "<arrival> <place>" so that one tag is served by arrival), each place's arrival and share (hash), each
 * place's expiry (sorted set), and the line's counters (hash: vt, the highest tag granted; seq, the
 * arrivals; n:<share> and t:<share>, each share's waiting calls and last tag). ARGV[3..5]: the share
 * (a keyed name), the place ('' for none), the longest wait to queue for ('' for any).
 */
export const FAIR_TAKE = `${LOAD_WINDOW}
local LINE, PLACES, EXPIRY, META = KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local share, place, maxWait = ARGV[3], ARGV[4], tonumber(ARGV[5])
local function member(p)
  local arrival = redis.call('HGET', PLACES, p)
  if not arrival then return nil end
  return string.match(arrival, '^(%d+) ') .. ' ' .. p, string.match(arrival, '^%d+ (.*)$')
end
local function drop(p, granted)
  local m, who = member(p)
  redis.call('ZREM', EXPIRY, p)
  if not m then return end
  if granted then
    local tag = tonumber(redis.call('ZSCORE', LINE, m))
    if tag and tag > (tonumber(redis.call('HGET', META, 'vt')) or 0) then redis.call('HSET', META, 'vt', tag) end
  end
  redis.call('ZREM', LINE, m)
  redis.call('HDEL', PLACES, p)
  if redis.call('HINCRBY', META, 'n:' .. who, -1) <= 0 then redis.call('HDEL', META, 'n:' .. who, 't:' .. who) end
end
local function keep()
  for _, key in ipairs({LINE, PLACES, EXPIRY, META}) do redis.call('PEXPIRE', key, ${4 * PLACE_TTL_MS}) end
end
-- Places whose caller stopped asking (a replica that crashed): a bounded number per ask.
for _, p in ipairs(redis.call('ZRANGEBYSCORE', EXPIRY, '-inf', now, 'LIMIT', 0, 64)) do drop(p, false) end

local perWindow = w.capacity
local period = w.windowMs + math.floor(math.min(500, w.windowMs / 20))
local free, untilNext
if now < w.pausedUntil then
  free = 0
  untilNext = w.pausedUntil - now
elseif w.endsAt == 0 or now >= w.endsAt then
  if w.probing then free = 1 else free = perWindow end
  untilNext = period
else
  free = math.max(perWindow - w.used, 0)
  untilNext = w.endsAt - now
end
local held, rank = false, nil
if place ~= '' then
  local m = member(place)
  if m then rank = redis.call('ZRANK', LINE, m) end
  if rank then held = true elseif m then drop(place, false) end
end
local tag
if not held then
  local vt = tonumber(redis.call('HGET', META, 'vt')) or 0
  tag = math.max(vt, tonumber(redis.call('HGET', META, 't:' .. share)) or 0) + 1
  rank = redis.call('ZCOUNT', LINE, '-inf', tag)
end
if rank < free then
  if held then drop(place, true) end
  if w.endsAt == 0 or now >= w.endsAt then
    w.endsAt = now + w.windowMs + math.floor(math.min(500, w.windowMs / 20))
    w.openedAt = now
    w.used = 0
    w.answered = 0
    w.leftSeen = -1
    w.confirmed = false
    if w.probing then
      w.used = w.capacity - 1
      w.answered = w.used
      w.probing = false
    end
  end
  w.used = w.used + 1
  save()
  return {0, w.openedAt, 0, 0}
end
local wait = untilNext + math.floor((rank - free) / perWindow) * period
if maxWait and wait > maxWait then
  if held then drop(place, false) end
  return {wait, w.openedAt, 0, untilNext}
end
if held then
  redis.call('ZADD', EXPIRY, now + ${PLACE_TTL_MS}, place)
  keep()
  return {wait, w.openedAt, 0, untilNext}
end
if place == '' then return {wait, w.openedAt, 0, untilNext} end
if (tonumber(redis.call('HGET', META, 'n:' .. share)) or 0) >= ${MAX_WAITING_PER_SHARE} then
  return {wait, w.openedAt, 1, untilNext}
end
local arrival = string.format('%015d', redis.call('HINCRBY', META, 'seq', 1))
redis.call('ZADD', LINE, tag, arrival .. ' ' .. place)
redis.call('HSET', PLACES, place, arrival .. ' ' .. share)
redis.call('ZADD', EXPIRY, now + ${PLACE_TTL_MS}, place)
redis.call('HSET', META, 't:' .. share, tag)
redis.call('HINCRBY', META, 'n:' .. share, 1)
keep()
return {wait, w.openedAt, 0, untilNext}
`;

/** fair-line.ts FairLine.leave: gives up the place ARGV[1] in the line of KEYS[1..4] (as FAIR_TAKE's KEYS[2..5]). */
export const LEAVE_LINE = `
local LINE, PLACES, EXPIRY, META = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local p = ARGV[1]
redis.call('ZREM', EXPIRY, p)
local arrival = redis.call('HGET', PLACES, p)
if not arrival then return 0 end
local who = string.match(arrival, '^%d+ (.*)$')
redis.call('ZREM', LINE, string.match(arrival, '^(%d+) ') .. ' ' .. p)
redis.call('HDEL', PLACES, p)
if redis.call('HINCRBY', META, 'n:' .. who, -1) <= 0 then redis.call('HDEL', META, 'n:' .. who, 't:' .. who) end
return 1
`;

/** window.ts observeWindow; ARGV[3..6]: limit, remaining, resetMs, ticket ('' when not told). */
export const OBSERVE_WINDOW = `${LOAD_WINDOW}
local MAX_PAUSE_MS = ${MAX_PAUSE_MS}
local SLACK_MS = 1500
local EARLIER_SLACK_MS = 50
local limit = tonumber(ARGV[3])
local left = tonumber(ARGV[4])
local reset = tonumber(ARGV[5])
local ticket = tonumber(ARGV[6])
local function startRemoteWindow(endsAt)
  w.endsAt = endsAt
  w.openedAt = endsAt - w.windowMs
  if left then w.used = w.capacity - left else w.used = 0 end
  w.answered = w.used
  w.leftSeen = left or -1
end
if limit and limit >= 1 then w.capacity = math.floor(limit) end
if left and left < 0 then left = nil end
if reset and reset >= 0 then
  reset = math.min(reset, MAX_PAUSE_MS)
  if reset > w.windowMs then w.windowMs = reset end
  local endsAt = now + math.min(reset, w.windowMs)
  if w.endsAt == 0 or now >= w.endsAt then
    startRemoteWindow(endsAt)
    w.confirmed = true
  elseif ticket and ticket ~= w.openedAt and endsAt < w.openedAt + w.windowMs - EARLIER_SLACK_MS then
    save()
    return 0
  elseif not w.confirmed then
    w.endsAt = endsAt
    w.confirmed = true
  elseif endsAt > w.endsAt + SLACK_MS then
    startRemoteWindow(endsAt)
  elseif endsAt < w.endsAt then
    w.endsAt = endsAt
  end
end
if ticket and ticket == w.openedAt then w.answered = w.answered + 1 end
if left then
  if w.leftSeen < 0 then w.leftSeen = left else w.leftSeen = math.min(w.leftSeen, left) end
  local counted = w.capacity - w.leftSeen
  if w.used - w.answered <= 0 then w.used = counted else w.used = math.max(w.used, counted) end
end
save()
return 0
`;

/** window.ts pauseWindow; ARGV[3]: milliseconds; bounded by ARGV[2] (the service's window) times PAUSE_WINDOWS. */
export const PAUSE_WINDOW = `${LOAD_WINDOW}
local asked = math.max(tonumber(ARGV[3]) or 0, 0)
local ms = math.min(asked, tonumber(ARGV[2]) * ${PAUSE_WINDOWS}, ${MAX_PAUSE_MS})
w.probing = asked > ms
w.endsAt = now + ms
w.openedAt = w.endsAt - w.windowMs
w.pausedUntil = now + ms
w.used = math.max(w.used, w.capacity)
w.confirmed = true
save()
return 0
`;

/**
 * Compare-and-set of a secret record (hash: version, sealed). ARGV: mode ('any' | 'absent' | 'match'),
 * expected version, new version, sealed value, ttl ms ('' for none). 1 when written.
 */
export const WRITE_SECRET = `
local current = redis.call('HGET', KEYS[1], 'version')
if ARGV[1] == 'absent' and current then return 0 end
if ARGV[1] == 'match' and current ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[3], 'sealed', ARGV[4])
if ARGV[5] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[5]) else redis.call('PERSIST', KEYS[1]) end
return 1
`;

/** Deletes KEYS[1] when its version is ARGV[1]. */
export const REMOVE_SECRET_AT = `
if redis.call('HGET', KEYS[1], 'version') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Releases the lock KEYS[1] when it is still ours (ARGV[1]). */
export const RELEASE_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Remembers a cursor: KEYS[1] hash, ARGV position, cursor, ttl ms, most fields kept. */
export const REMEMBER_CURSOR = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if redis.call('HLEN', KEYS[1]) > tonumber(ARGV[4]) then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;
