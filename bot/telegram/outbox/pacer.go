package outbox

import (
	"context"
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/bashni/bashni/bot/telegram"
	"github.com/go-redis/redis_rate/v10"
	goredis "github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"
)

// Pacer keeps the bot's Telegram budgets where every replica spends them
// (Options.Pacer): Telegram counts a bot's messages, not a process's, so
// two replicas pacing themselves each spend a group's twenty a minute.
// Without one, each outbox paces itself in memory, which is right for a
// single process (the bbolt store).
type Pacer interface {
	// Wait returns once one message to the chat (or inline message)
	// named lane may be sent, having spent it from the chat's budget
	// (the group's, for a group) unless unpaced, and from the bot's.
	Wait(ctx context.Context, lane string, group, unpaced bool) error
	// Hold keeps lane from sending for d, for every replica: a 429's
	// retry_after.
	Hold(ctx context.Context, lane string, d time.Duration) error
	// Fresh reports whether version v of what key names (a game's card)
	// may still be shown, and records it as shown: false when a newer
	// version was shown already, by any replica.
	Fresh(ctx context.Context, key string, v int64) (bool, error)
	// Drawn is Fresh for a board drawn when it is sent (Reply.Lazy),
	// which shows the game as it stands: false also when this version, or
	// this drawing (fp, its fingerprint), was drawn so already (two
	// replicas' edits of one card, queued for older boards, drawn at the
	// same moment; a version that changed nothing one sees).
	Drawn(ctx context.Context, key string, v int64, fp string) (bool, error)
}

// RedisPacer is a Pacer in Redis. The budgets are GCRA limits kept by
// redis_rate (one script a budget); chats and groups get a burst of one,
// so that any two messages to a chat are at least a second apart and a
// group gets at most twenty in any minute, however many replicas send.
type RedisPacer struct {
	rdb                 goredis.UniversalClient
	lim                 *redis_rate.Limiter
	prefix              string
	chat, group, global redis_rate.Limit
}

var _ Pacer = (*RedisPacer)(nil)

// NewRedisPacer paces through rdb at the rates of o (Options' defaults
// for those unset), with keys under prefix.
func NewRedisPacer(rdb goredis.UniversalClient, prefix string, o Options) *RedisPacer {
	o = o.withDefaults()
	return &RedisPacer{
		rdb: rdb, lim: redis_rate.NewLimiter(rdb), prefix: prefix + "pace:",
		chat:   gcra(o.PerChat, 1),
		group:  gcra(o.PerGroup, 1),
		global: gcra(o.Global, o.GlobalBurst),
	}
}

// gcra is r events a second as a redis_rate limit, counted per hour so
// that fractional rates (a third of a message a second) stay exact enough.
func gcra(r rate.Limit, burst int) redis_rate.Limit {
	return redis_rate.Limit{Rate: max(1, int(math.Round(float64(r)*3600))), Burst: max(burst, 1), Period: time.Hour}
}

// Wait spends one message of lane's budget (unless unpaced) and one of the
// bot's, waiting for each as long as Redis says.
func (p *RedisPacer) Wait(ctx context.Context, lane string, group, unpaced bool) error {
	if !unpaced {
		for {
			held, err := p.rdb.PTTL(ctx, p.prefix+"hold:"+lane).Result()
			if err != nil {
				return err
			}
			if held <= 0 {
				break
			}
			if !telegram.Sleep(ctx, held) {
				return ctx.Err()
			}
		}
		lim := p.chat
		if group {
			lim = p.group
		}
		if err := p.spend(ctx, "chat:"+lane, lim); err != nil {
			return err
		}
	}
	return p.spend(ctx, "bot", p.global)
}

func (p *RedisPacer) spend(ctx context.Context, key string, lim redis_rate.Limit) error {
	for {
		res, err := p.lim.Allow(ctx, p.prefix+key, lim)
		if err != nil {
			return err
		}
		if res.Allowed > 0 {
			return nil
		}
		if !telegram.Sleep(ctx, max(res.RetryAfter, time.Millisecond)) {
			return ctx.Err()
		}
	}
}

// Hold sets lane's hold key to expire after d.
func (p *RedisPacer) Hold(ctx context.Context, lane string, d time.Duration) error {
	return p.rdb.Set(ctx, p.prefix+"hold:"+lane, "1", max(d, time.Millisecond)).Err()
}

// fresh: KEYS[1] the newest version shown, followed by " d:FP" when it
// was drawn at send time (a Lazy reply; FP the drawing's fingerprint, may
// be empty); ARGV version, lifetime (ms), "d:FP" for a board drawn at send
// time ("" otherwise). A board drawn at send time is not shown twice: the
// same version, or the same drawing, drawn so already is refused (and the
// version recorded).
var fresh = goredis.NewScript(`
local raw = redis.call('GET', KEYS[1]) or '-1'
local sp = string.find(raw, ' ', 1, true)
local cur, how = raw, ''
if sp then cur, how = string.sub(raw, 1, sp - 1), string.sub(raw, sp + 1) end
cur = tonumber(cur) or -1
local v = tonumber(ARGV[1])
if cur > v then return 0 end
local mine = ARGV[3]
local dup = false
if mine ~= '' and string.sub(how, 1, 1) == 'd' then
  dup = cur == v or (mine ~= 'd:' and how == mine)
end
local val = ARGV[1]
if mine ~= '' then val = val .. ' ' .. mine end
redis.call('SET', KEYS[1], val, 'PX', ARGV[2])
if dup then return 0 end
return 1
`)

// shownFor is how long the newest version shown of a card is remembered:
// longer than any edit waits.
const shownFor = 24 * time.Hour

// Fresh compares v with the newest version shown and records it if newer.
func (p *RedisPacer) Fresh(ctx context.Context, key string, v int64) (bool, error) {
	n, err := fresh.Run(ctx, p.rdb, []string{p.prefix + "shown:" + key}, v, shownFor.Milliseconds(), "").Int()
	return n == 1, err
}

// Drawn is Fresh for a board drawn at send time, fp its fingerprint.
func (p *RedisPacer) Drawn(ctx context.Context, key string, v int64, fp string) (bool, error) {
	n, err := fresh.Run(ctx, p.rdb, []string{p.prefix + "shown:" + key}, v, shownFor.Milliseconds(), "d:"+fp).Int()
	return n == 1, err
}

// laneName names a lane for a Pacer.
func (k laneKey) name() string {
	if k.inline != "" {
		return "i" + k.inline
	}
	return strconv.FormatInt(k.chat, 10)
}

// errPacer marks a pacer's failure: the outbox paces in memory instead.
var errPacer = errors.New("outbox: shared pacing failed")
