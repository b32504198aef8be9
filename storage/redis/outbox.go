package redis

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

var _ storage.Outbox = (*Store)(nil)

// The outbox's keys, and the update marks written with them, share the
// hash tag {tg} (what Telegram sent and what it is owed), so that one
// script writes a mark and its requests on a Cluster too:
//
//   - outbox:{tg}:seq counts appended requests; an id is the count as 16
//     digits, so ids sort in append order;
//   - outbox:{tg}:owners is the set of owners with a queue;
//   - outbox:{tg}:lease:OWNER holds the end of OWNER's lease, in unix ms by
//     the caller's clock (Redis's own expiry only frees it long after);
//   - outbox:{tg}:q:OWNER is a hash from id to request.
func (s *Store) outboxKey(part string) string { return s.prefix + "outbox:{tg}:" + part }

// leaseKeep is how much longer than the lease a lease key is kept: its
// value decides, Redis's expiry only frees memory of owners long gone.
const leaseKeep = 10

// appendOwed: KEYS seq, owners, lease key, queue, mark; ARGV owner, lease
// end (ms), lease key lifetime (ms), mark token ("" for no mark), mark ttl
// (ms), now (ms), then the requests. Returns {first, ids...}.
var appendOwed = goredis.NewScript(`
if ARGV[4] ~= '' then
  local v = redis.call('GET', KEYS[5])
  if v then
    local sep = string.find(v, ' ', 1, true)
    local token, tillMs = v, math.huge
    if sep then
      token = string.sub(v, 1, sep - 1)
      tillMs = tonumber(string.sub(v, sep + 1)) or math.huge
    end
    if token ~= ARGV[4] and tillMs > tonumber(ARGV[6]) then return {0} end
    if token == ARGV[4] then return {1} end
  end
  redis.call('SET', KEYS[5], ARGV[4] .. ' ' .. (tonumber(ARGV[6]) + tonumber(ARGV[5])), 'PX', ARGV[5])
end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3])
local out = {1}
for i = 7, #ARGV do
  local id = string.format('%016d', redis.call('INCR', KEYS[1]))
  redis.call('HSET', KEYS[4], id, ARGV[i])
  out[#out + 1] = id
end
return out
`)

// claimOwed: KEYS owners, my lease key, my queue; ARGV me, lease end (ms),
// lease key lifetime (ms), now (ms), lease key prefix, queue key prefix.
// Returns id, request, id, request... of the owners whose lease ended.
// Their keys are built here from the prefixes: they share the {tg} tag,
// so they are in this script's slot.
var claimOwed = goredis.NewScript(`
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
redis.call('SADD', KEYS[1], ARGV[1])
local now = tonumber(ARGV[4])
local out = {}
for _, o in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if o ~= ARGV[1] then
    local till = tonumber(redis.call('GET', ARGV[5] .. o) or '0') or 0
    if till <= now then
      local q = redis.call('HGETALL', ARGV[6] .. o)
      for i = 1, #q, 2 do
        redis.call('HSET', KEYS[3], q[i], q[i + 1])
        out[#out + 1] = q[i]
        out[#out + 1] = q[i + 1]
      end
      redis.call('DEL', ARGV[6] .. o, ARGV[5] .. o)
      redis.call('SREM', KEYS[1], o)
    end
  end
end
return out
`)

func (s *Store) owedKeys(owner string, updateID int64) []string {
	mark := s.outboxKey("none")
	if updateID != 0 {
		mark = s.updateKey(updateID)
	}
	return []string{s.outboxKey("seq"), s.outboxKey("owners"), s.outboxKey("lease:" + owner), s.outboxKey("q:" + owner), mark}
}

func (s *Store) appendOwed(ctx context.Context, op string, updateID int64, ttl time.Duration, owner string, lease time.Duration, owed [][]byte) (bool, []string, error) {
	if err := start(ctx, op); err != nil {
		return false, nil, err
	}
	now := s.now()
	token := ""
	if updateID != 0 {
		token = newToken()
	}
	args := make([]any, 0, 6+len(owed))
	args = append(args, owner, now.Add(lease).UnixMilli(), max(lease*leaseKeep, time.Millisecond).Milliseconds(),
		token, max(ttl, time.Millisecond).Milliseconds(), now.UnixMilli())
	for _, d := range owed {
		args = append(args, d)
	}
	res, err := appendOwed.Run(ctx, s.rdb, s.owedKeys(owner, updateID), args...).Slice()
	if err != nil {
		return false, nil, fail(op, err)
	}
	if len(res) == 0 || res[0] != int64(1) {
		return false, nil, nil
	}
	ids := make([]string, 0, len(res)-1)
	for _, v := range res[1:] {
		id, _ := v.(string)
		ids = append(ids, id)
	}
	return true, ids, nil
}

// MarkUpdateOwing marks the update and appends owed in one script.
func (s *Store) MarkUpdateOwing(ctx context.Context, updateID int64, ttl time.Duration, owner string, lease time.Duration, owed [][]byte) (bool, []string, error) {
	op := fmt.Sprintf("mark update %d owing %d", updateID, len(owed))
	if ttl <= 0 || updateID == 0 {
		return false, nil, fmt.Errorf("storage: redis: %s: ttl %v, update %d", op, ttl, updateID)
	}
	return s.appendOwed(ctx, op, updateID, ttl, owner, lease, owed)
}

// AppendOutbox appends owed for owner in one script.
func (s *Store) AppendOutbox(ctx context.Context, owner string, lease time.Duration, owed [][]byte) ([]string, error) {
	_, ids, err := s.appendOwed(ctx, fmt.Sprintf("append %d owed", len(owed)), 0, 0, owner, lease, owed)
	return ids, err
}

// AckOutbox deletes sent requests from owner's queue.
func (s *Store) AckOutbox(ctx context.Context, owner string, ids []string) error {
	op := fmt.Sprintf("ack %d owed", len(ids))
	if err := start(ctx, op); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	return fail(op, s.rdb.HDel(ctx, s.outboxKey("q:"+owner), ids...).Err())
}

// ClaimOutbox renews owner's lease and takes over the queues of owners
// whose lease ended, in one script.
func (s *Store) ClaimOutbox(ctx context.Context, owner string, lease time.Duration) ([]storage.Owed, error) {
	const op = "claim owed"
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	now := s.now()
	keys := []string{s.outboxKey("owners"), s.outboxKey("lease:" + owner), s.outboxKey("q:" + owner)}
	res, err := claimOwed.Run(ctx, s.rdb, keys, owner, now.Add(lease).UnixMilli(), max(lease*leaseKeep, time.Millisecond).Milliseconds(),
		now.UnixMilli(), s.outboxKey("lease:"), s.outboxKey("q:")).StringSlice()
	if err != nil {
		return nil, fail(op, err)
	}
	out := make([]storage.Owed, 0, len(res)/2)
	for i := 0; i+1 < len(res); i += 2 {
		out = append(out, storage.Owed{ID: res[i], Data: []byte(res[i+1])})
	}
	// Ids of one owner come back in hash order; ids sort as appended.
	sortOwed(out)
	return out, nil
}

// ReleaseOutbox ends owner's lease at once.
func (s *Store) ReleaseOutbox(ctx context.Context, owner string) error {
	const op = "release outbox"
	if err := start(ctx, op); err != nil {
		return err
	}
	return fail(op, s.rdb.Del(ctx, s.outboxKey("lease:"+owner)).Err())
}

func sortOwed(o []storage.Owed) {
	slices.SortFunc(o, func(a, b storage.Owed) int { return strings.Compare(a.ID, b.ID) })
}
