package main

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
)

var (
	quickPlayReal  = flag.Bool("quickplay", false, "play a quick group game at Telegram's real pacing (takes a minute or two) and report tap → board latency")
	quickPlayThink = flag.Duration("quickplay.think", 0, "how long a player of the real-pacing quick game looks at a new board before tapping (0: taps the moment it shows)")
)

// quickPlies is how long the quick group game is.
const quickPlies = 20

// Two friends in a group move as fast as the buttons appear, at the pace
// Telegram really allows a bot (1 message a second per chat, 20 a minute
// per group). It reports what they feel: tap → board p50/p95, and what
// the game costs of the group's 20 messages a minute. Run it with
//
//	go test ./cmd/bashni -run QuickGroupGameRealPacing -quickplay -v
func TestE2EQuickGroupGameRealPacing(t *testing.T) {
	if !*quickPlayReal {
		t.Skip("the real-pacing quick game runs with -quickplay")
	}
	res := playQuickGroupGame(t, *quickPlayThink, map[string]string{
		"BASHNI_RATE_PER_CHAT": "1", "BASHNI_RATE_PER_GROUP": "20", "BASHNI_RATE_GLOBAL": "30",
		"BASHNI_NOTICE_DELAY": defaults().Game.NoticeDelay.String(),
	})
	t.Logf("\n%s", res)
}

// The same game with Telegram's pacing scaled up twenty times, in every
// run: what it costs per ply must not grow. Durations are reported, not
// asserted.
func TestE2EQuickGroupGameScaledPacing(t *testing.T) {
	res := playQuickGroupGame(t, 0, map[string]string{
		"BASHNI_RATE_PER_CHAT": "20", "BASHNI_RATE_PER_GROUP": "400", "BASHNI_RATE_GLOBAL": "600",
		"BASHNI_NOTICE_DELAY": defaults().Game.NoticeDelay.String(),
	})
	t.Logf("\n%s", res)
	// Per ply: the card's edit showing the move, nothing else while both
	// play live (no keyboard-only edit, no notice, no deletion).
	if got := res.perPly(res.messages()); got > 1.0 {
		t.Errorf("%.2f messages (sends and edits) to the group per ply; want at most 1\n%s", got, res)
	}
	if n := res.calls["deleteMessage"]; n > 0 {
		t.Errorf("%d deletions while both played live; want none", n)
	}
}

// quickResult is what the quick game measured.
type quickResult struct {
	plies     int
	taps      int
	think     time.Duration   // each player's look at a new board before tapping
	board     []time.Duration // the tap that made a move → the card showing it
	picker    []time.Duration // a tap on a tower → its destinations shown
	calls     map[string]int  // Bot API calls to the group (and answers) during play, by method
	wallClock time.Duration
}

// messages is what counts against Telegram's per-chat and per-group
// limits: messages sent and messages edited.
func (r quickResult) messages() int {
	n := 0
	for m, c := range r.calls {
		if strings.HasPrefix(m, "send") && m != "sendChatAction" || strings.HasPrefix(m, "edit") {
			n += c
		}
	}
	return n
}

func (r quickResult) perPly(n int) float64 { return float64(n) / float64(max(r.plies, 1)) }

func (r quickResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d plies, %d taps in %v, players looking %v at each new board\n", r.plies, r.taps, r.wallClock.Round(time.Millisecond), r.think)
	fmt.Fprintf(&b, "tap → board:   p50 %v  p95 %v  max %v (%d moves)\n",
		quantile(r.board, 0.5), quantile(r.board, 0.95), quantile(r.board, 1), len(r.board))
	if len(r.picker) > 0 {
		fmt.Fprintf(&b, "tap → picker:  p50 %v  p95 %v (%d tower taps)\n", quantile(r.picker, 0.5), quantile(r.picker, 0.95), len(r.picker))
	}
	fmt.Fprintf(&b, "messages to the group per ply (sends and edits, what Telegram paces): %.2f\n", r.perPly(r.messages()))
	for _, m := range slices.Sorted(func(yield func(string) bool) {
		for k := range r.calls {
			if !yield(k) {
				return
			}
		}
	}) {
		fmt.Fprintf(&b, "  %-24s %5.2f per ply (%d)\n", m, r.perPly(r.calls[m]), r.calls[m])
	}
	return b.String()
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)].Round(time.Millisecond)
}

// cardState is the card as the players see it after one of its changes.
type cardState struct {
	at       time.Time
	ply      int // the picker's board version; -1 without a picker
	back     bool
	thinking bool     // the caption says the AI is thinking
	data     []string // the picker's buttons but Back, in order
}

func stateOf(m telegramtest.Msg, at time.Time) cardState {
	s := cardState{at: at, ply: -1, thinking: strings.Contains(m.Text, "thinking")}
	for _, b := range buttons(m) {
		if !isPick(b[1]) {
			continue
		}
		parts := strings.SplitN(b[1], "|", 4)
		if len(parts) == 4 {
			s.ply, _ = strconv.Atoi(parts[2])
		}
		if isBack(b[1]) {
			s.back = true
			continue
		}
		s.data = append(s.data, b[1])
	}
	return s
}

// playQuickGroupGame plays quickPlies plies in a group, each player tapping
// the first button offered the moment the card shows it, or think after a
// new board shows: the time a person takes to see the move and answer.
func playQuickGroupGame(t *testing.T, think time.Duration, env map[string]string) quickResult {
	t.Helper()
	srv := telegramtest.New(t)
	startBot(t, srv, env)
	group := telegramtest.GroupChat(-1005555500015, "Blitz club")
	alice, bob := newUser(9151, "Alice", "en"), newUser(9152, "Bob", "en")

	c := startGroupGame(t, srv, group, alice, bob)

	next := watchCard(t, srv, group.ID, c.ID)
	cur := stateOf(card(t, srv, group.ID, c.ID), time.Now())
	if cur.ply != 0 || cur.back {
		cur = next("the first move's picker", func(s cardState) bool { return s.ply == 0 && !s.back })
	}

	res := quickResult{think: think, calls: map[string]int{}}
	before := len(srv.Calls())
	start := time.Now()
	for ply := 0; ply < quickPlies; ply++ {
		player := alice
		if ply%2 == 1 {
			player = bob
		}
		if think > 0 {
			// A person looking at the board, not a wait for the bot.
			<-time.After(think)
		}
		for {
			if len(cur.data) == 0 {
				t.Fatalf("ply %d: the card offers nothing to tap", ply)
			}
			tapped := time.Now()
			srv.PushUpdate(srv.CallbackQuery(group, player.u, c.ID, cur.data[0]))
			res.taps++
			// The tap either picked a tower (the same board, now with
			// Back) or made the move (the next board, or none if it ended).
			s := next("the answer to a tap", func(s cardState) bool { return s.ply != ply || s.back })
			if s.ply == ply {
				res.picker = append(res.picker, s.at.Sub(tapped))
				cur = s
				continue
			}
			res.board = append(res.board, s.at.Sub(tapped))
			cur = s
			break
		}
		res.plies++
		if cur.ply < 0 {
			break // the game ended
		}
		// A player who tapped a tower sees the destinations; the move's
		// board must also come back to the first stage.
		if cur.back {
			cur = next("the next move's first stage", func(s cardState) bool { return s.ply == ply+1 && !s.back })
		}
	}
	res.wallClock = time.Since(start)
	for _, call := range srv.Calls()[before:] {
		if call.ChatID() == group.ID || strings.HasPrefix(call.Method, "answer") {
			res.calls[call.Method]++
		}
	}
	return res
}

// A quick game against the AI in a private chat at Telegram's real pace (one
// message a second per chat): the player's own move must show at once and
// the AI's reply after its thinking time, not after the pace. Run it with
//
//	go test ./cmd/bashni -run QuickPrivateGameRealPacing -quickplay -v
func TestE2EQuickPrivateGameRealPacing(t *testing.T) {
	if !*quickPlayReal {
		t.Skip("the real-pacing quick game runs with -quickplay")
	}
	res := playQuickPrivateGame(t, *quickPlayThink, map[string]string{
		"BASHNI_RATE_PER_CHAT": "1", "BASHNI_RATE_PER_GROUP": "20", "BASHNI_RATE_GLOBAL": "30",
		"BASHNI_NOTICE_DELAY": defaults().Game.NoticeDelay.String(),
	})
	t.Logf("\n%s", res)
}

// The same at twenty times Telegram's pace, in every run: when the AI
// answers at once, a move costs the chat one board, not two.
func TestE2EQuickPrivateGameScaledPacing(t *testing.T) {
	res := playQuickPrivateGame(t, 0, map[string]string{
		"BASHNI_RATE_PER_CHAT": "20", "BASHNI_RATE_PER_GROUP": "400", "BASHNI_RATE_GLOBAL": "600",
	})
	t.Logf("\n%s", res)
	// The AI's few thousand nodes take milliseconds; a machine slow enough
	// to pass the grace now and then shows the player's board alone.
	if per := float64(res.calls["editMessageMedia"]) / float64(max(len(res.own), 1)); per > 1.5 {
		t.Errorf("%.2f board edits per move; want about one (the AI's reply replaces the player's board)\n%s", per, res)
	}
}

// privateResult is what the quick private game measured.
type privateResult struct {
	own, reply []time.Duration
	taps       int
	think      time.Duration
	calls      map[string]int
}

func (r privateResult) String() string {
	return fmt.Sprintf("%d moves, %d taps, looking %v at each new board\ntap → own move shown (alone or with the reply):  p50 %v  p95 %v\ntap → AI's reply shown: p50 %v  p95 %v\ncalls: %v",
		len(r.own), r.taps, r.think, quantile(r.own, 0.5), quantile(r.own, 0.95), quantile(r.reply, 0.5), quantile(r.reply, 0.95), r.calls)
}

// playQuickPrivateGame plays quickPlies/2 moves against the AI, the player
// tapping the first button the moment the board shows (or think later).
func playQuickPrivateGame(t *testing.T, think time.Duration, env map[string]string) privateResult {
	t.Helper()
	srv := telegramtest.New(t)
	bp := startBot(t, srv, env)
	alice := newUser(9161, "Alice", "en")
	say(srv, alice.chat, alice, "/play 1 white")
	c := waitMessage(t, srv, alice.chat.ID, "card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })

	next := watchCard(t, srv, alice.chat.ID, c.ID, bp)
	cur := stateOf(card(t, srv, alice.chat.ID, c.ID), time.Now())
	var own, reply []time.Duration
	taps := 0
	before := len(srv.Calls())
	for moves := 0; moves < quickPlies/2 && cur.ply >= 0; moves++ {
		ply := cur.ply
		if think > 0 {
			<-time.After(think) // a person looking at the board
		}
		var tapped time.Time
		for {
			tapped = time.Now()
			srv.PushUpdate(srv.CallbackQuery(alice.chat, alice.u, c.ID, cur.data[0]))
			taps++
			s := next("the answer to a tap", func(s cardState) bool { return s.back || s.thinking || s.ply != ply })
			if s.back && s.ply == ply {
				cur = s
				continue
			}
			own = append(own, s.at.Sub(tapped))
			if !s.thinking {
				// The AI answered before its move was worth showing alone.
				reply = append(reply, s.at.Sub(tapped))
				cur = s
				break
			}
			s = next("the AI's reply", func(s cardState) bool { return !s.thinking && s.ply != ply })
			reply = append(reply, s.at.Sub(tapped))
			cur = s
			break
		}
	}
	calls := map[string]int{}
	for _, call := range srv.Calls()[before:] {
		if call.ChatID() == alice.chat.ID || strings.HasPrefix(call.Method, "answer") {
			calls[call.Method]++
		}
	}
	return privateResult{own: own, reply: reply, taps: taps, think: think, calls: calls}
}

// watchCard hears of every change of a card the moment the fake has it; the
// returned next waits for the first change that satisfies ok (logs of bots,
// if given, go with a failure).
func watchCard(t *testing.T, srv *telegramtest.Server, chatID int64, cardID int, bots ...*botProcess) func(what string, ok func(cardState) bool) cardState {
	t.Helper()
	states := make(chan cardState, 1024)
	stop := srv.OnMessage(func(call telegramtest.Call, m telegramtest.Msg) {
		if m.ChatID == chatID && m.ID == cardID {
			states <- stateOf(m, time.Now())
		}
	})
	t.Cleanup(stop)
	return func(what string, ok func(cardState) bool) cardState {
		t.Helper()
		timeout := time.After(60 * time.Second)
		for {
			select {
			case s := <-states:
				if ok(s) {
					return s
				}
			case <-timeout:
				m := card(t, srv, chatID, cardID)
				var logs []string
				for _, b := range bots {
					logs = append(logs, b.logs.String())
				}
				t.Fatalf("the card never showed %s; it shows %q %v\nlogs:\n%s", what, m.Text, buttons(m), strings.Join(logs, "\n"))
			}
		}
	}
}
