package redis

import (
	"strings"
	"testing"
	"time"
)

// A retried call carries the same token and must get the same answer as the
// first; a different call must not.
func TestScriptsRecogniseTheirOwnRetry(t *testing.T) {
	s, raw := newTestStore(t)
	ctx := t.Context()
	game := []string{s.gameKey("g")}
	challenge := []string{s.challengeKey("c"), s.challengeKey("c") + ":taken"}
	mark := []string{s.updateKey(1)}
	user := []string{s.userKey(1)}
	putUserRun := func(from, to, token string) func() (any, error) {
		return func() (any, error) {
			res, err := putUser.Run(ctx, raw, user, from, to, `{"id":1,"username":"ann","v":`+to+`,"w":"`+token+`"}`, token).Slice()
			if err != nil {
				return nil, err
			}
			return res[0], nil
		}
	}
	lines := []string{s.rankKey(-100), s.linesKey(-100)}
	setStandingRun := func(from, to, token string) func() (any, error) {
		return func() (any, error) {
			return setStanding.Run(ctx, raw, lines, member(1), from, to, `{"user_id":1,"rating":1500,"v":`+to+`,"w":"`+token+`"}`, token, "-1500").Result()
		}
	}
	raw.Set(ctx, challenge[0], "challenge", 0)

	nowMs := time.Now().UnixMilli()
	steps := []struct {
		name string
		run  func() (any, error)
		want any
	}{
		{"create", func() (any, error) { return createGame.Run(ctx, raw, game, "{}", "1", "A", "h", "", 0).Result() }, int64(1)},
		{"create resent", func() (any, error) { return createGame.Run(ctx, raw, game, "{}", "1", "A", "h", "", 0).Result() }, int64(1)},
		{"create by another", func() (any, error) { return createGame.Run(ctx, raw, game, "{}", "1", "B", "h", "", 0).Result() }, int64(0)},
		{"update", func() (any, error) {
			return updateGame.Run(ctx, raw, game, "1", "2", "{}", "1", "C", "h", "", "1", 0).Result()
		}, int64(1)},
		{"update resent", func() (any, error) {
			return updateGame.Run(ctx, raw, game, "1", "2", "{}", "1", "C", "h", "", "1", 0).Result()
		}, int64(1)},
		{"update by another", func() (any, error) {
			return updateGame.Run(ctx, raw, game, "1", "2", "{}", "1", "D", "h", "", "1", 0).Result()
		}, int64(0)},
		{"create resent after an update", func() (any, error) { return createGame.Run(ctx, raw, game, "{}", "1", "A", "h", "", 0).Result() }, int64(0)},
		{"finish", func() (any, error) {
			return updateGame.Run(ctx, raw, game, "2", "3", "{}", "0", "E", "h", "", "1", 0).Result()
		}, int64(1)},
		{"reopen", func() (any, error) {
			return updateGame.Run(ctx, raw, game, "3", "4", "{}", "1", "F", "h", "", "1", 0).Result()
		}, int64(-2)},
		{"update missing", func() (any, error) {
			return updateGame.Run(ctx, raw, []string{s.gameKey("nope")}, "1", "2", "{}", "1", "G", "h", "", "1", 0).Result()
		}, int64(-1)},
		{"put user", putUserRun("0", "1", "P"), int64(1)},
		{"put user resent", putUserRun("0", "1", "P"), int64(1)},
		{"put user by another", putUserRun("0", "1", "Q"), int64(0)},
		{"put user again", putUserRun("1", "2", "R"), int64(1)},
		{"put user resent after another write", putUserRun("0", "1", "P"), int64(0)},
		{"set standing", setStandingRun("0", "1", "S"), int64(1)},
		{"set standing resent", setStandingRun("0", "1", "S"), int64(1)},
		{"set standing by another", setStandingRun("0", "1", "T"), int64(0)},
		{"set standing again", setStandingRun("1", "2", "U"), int64(1)},
		{"set standing resent after another write", setStandingRun("0", "1", "S"), int64(0)},
		{"take", func() (any, error) { return takeChallenge.Run(ctx, raw, challenge, "T").Result() }, "challenge"},
		{"take resent", func() (any, error) { return takeChallenge.Run(ctx, raw, challenge, "T").Result() }, "challenge"},
		{"take by another", func() (any, error) { return takeChallenge.Run(ctx, raw, challenge, "U").Result() }, nil},
		{"mark", func() (any, error) { return markUpdate.Run(ctx, raw, mark, "M", 60000, nowMs).Result() }, int64(1)},
		{"mark resent", func() (any, error) { return markUpdate.Run(ctx, raw, mark, "M", 60000, nowMs).Result() }, int64(1)},
		{"mark by another", func() (any, error) { return markUpdate.Run(ctx, raw, mark, "N", 60000, nowMs).Result() }, int64(0)},
		{"mark by another after its time", func() (any, error) {
			return markUpdate.Run(ctx, raw, mark, "N", 60000, nowMs+60000).Result()
		}, int64(1)},
	}
	for _, st := range steps {
		got, err := st.run()
		if st.want == nil {
			if err == nil {
				t.Errorf("%s: got %v, want nil reply", st.name, got)
			}
			continue
		}
		if err != nil || got != st.want {
			t.Errorf("%s: got %v (%v), want %v", st.name, got, err, st.want)
		}
	}
}

// On a Cluster every script and transaction must touch one slot: the keys
// used together must share their hash tag.
func TestKeysUsedTogetherShareATag(t *testing.T) {
	s := New(nil, time.Now, WithPrefix("p:"))
	groups := [][]string{
		{s.challengeKey("c1"), s.challengeKey("c1") + ":taken"},
		{s.rankKey(-100), s.linesKey(-100)},
		{s.rankKey(0), s.linesKey(0)},
	}
	for _, keys := range groups {
		for _, k := range keys[1:] {
			if hashTag(k) != hashTag(keys[0]) || hashTag(k) == "" {
				t.Errorf("keys %q: tags %q and %q differ", keys, hashTag(keys[0]), hashTag(k))
			}
		}
	}
	if id, ok := gameID(s.gameKey("ab-c"), "p:"); !ok || id != "ab-c" {
		t.Errorf("gameID(gameKey(ab-c)): got %q, %v", id, ok)
	}
}

func hashTag(key string) string {
	open := strings.IndexByte(key, '{')
	if open < 0 {
		return ""
	}
	end := strings.IndexByte(key[open+1:], '}')
	if end <= 0 {
		return ""
	}
	return key[open+1 : open+1+end]
}

// Leaderboard members must sort as their user ids do, negatives included,
// so that equal ratings come out in user id order.
func TestMemberOrder(t *testing.T) {
	ids := []int64{-1 << 63, -5, -1, 0, 1, 9, 10, 1 << 40, 1<<63 - 1}
	for i := 1; i < len(ids); i++ {
		if a, b := member(ids[i-1]), member(ids[i]); a >= b {
			t.Errorf("member(%d) = %s is not below member(%d) = %s", ids[i-1], a, ids[i], b)
		}
	}
}
