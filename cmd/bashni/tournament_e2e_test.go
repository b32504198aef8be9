package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
)

// startClockedWithLogs runs the bot in this process as startBotWithClock
// does, on the environment vars, keeping its logs (a failing test shows
// them); stop ends it and waits.
func startClockedWithLogs(t *testing.T, srv *telegramtest.Server, clock *testkit.Clock, vars map[string]string) (logs *testkit.Buffer, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	logs = &testkit.Buffer{}
	before := len(srv.CallsTo("getUpdates"))
	go func() {
		done <- cmdBot(ctx, env{args: nil, getenv: func(k string) string { return vars[k] }, environ: environ(vars),
			stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: logs, now: clock.Now})
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-done
		})
	}
	t.Cleanup(stop)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("bot logs:\n%s", logs)
		}
	})
	srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "getUpdates" && len(srv.CallsTo("getUpdates")) > before
	})
	return logs, stop
}

// tourButton finds a button of the group's tournament card by its data's
// kind ("tj", "tl", "tp", "ts").
func tourButton(t *testing.T, m telegramtest.Msg, kind string) string {
	t.Helper()
	for _, b := range buttons(m) {
		if strings.HasPrefix(b[1], kind+"|") {
			return b[1]
		}
	}
	t.Fatalf("no %s button on %q: %v", kind, m.Text, buttons(m))
	return ""
}

// tourGameCard waits for a tournament game's card in a player's private
// chat newer than after, and returns it.
func tourGameCard(t *testing.T, srv *telegramtest.Server, u user, after int, what string) telegramtest.Msg {
	t.Helper()
	return waitMessage(t, srv, u.chat.ID, what, func(m telegramtest.Msg) bool {
		return m.FromBot && m.Kind == "photo" && m.ID > after && len(buttons(m)) > 0
	})
}

// A 4-player arena of short games, driven to its final standings through
// the fake Bot API with the clock moved by hand. /tournament alone asks
// with buttons; /tournament 20+0 15m starts one; a second one, a bad time
// control or length, a tap from someone not in it and a second join are
// refused with a clear answer. Players who started the bot join with the
// button; one who never did is sent to the bot by the toast's link and
// joins with /start. Each game is shown in both players' private chats,
// each in its player's language, played there by buttons and by typed
// moves; as soon as both first games end the four are paired again, never
// with the opponent just played. The group's card changes only as often
// as the tournament lets it (not at each join); when time is up nobody is
// paired any more, the game still going on is played out, and then the
// final standings with the podium and every player's games are posted.
func TestE2EArenaTournament(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	vars := withDefaults(t, srv, map[string]string{"BASHNI_CLOCK_INTERVAL": "20ms"})
	_, stop := startClockedWithLogs(t, srv, clock, vars)
	group := telegramtest.GroupChat(-1004000000077, "Arena club")
	alice, boris, carol, dave, eve := newUser(7001, "Alice", "en"), newUser(7002, "Boris", "ru"), newUser(7003, "Carol", "en"),
		newUser(7004, "Dave", "en"), newUser(7005, "Eve", "en")
	joinGroup(srv, group, alice, boris, carol, dave, eve)
	for _, u := range []user{alice, boris, carol} {
		say(srv, u.chat, u, "/start")
		waitMessage(t, srv, u.chat.ID, "the greeting", func(m telegramtest.Msg) bool { return m.FromBot })
	}

	// Bad input first: nothing starts.
	say(srv, group, alice, "/tournament 5+3 9h")
	waitMessage(t, srv, group.ID, "a refused length", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "from 5 minutes to 3 hours")
	})
	say(srv, group, alice, "/tournament 5-3 30m")
	waitMessage(t, srv, group.ID, "a refused time control", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "5+3")
	})
	// /tournament alone asks with buttons: the time control, then the length.
	say(srv, group, carol, "/tournament")
	setup := waitMessage(t, srv, group.ID, "the time control question", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "choose the time control") && len(buttons(m)) == 3
	})
	tap(t, srv, group, carol, setup.ID, buttons(setup)[2][1])
	setup = waitMessage(t, srv, group.ID, "the length question", func(m telegramtest.Msg) bool {
		return m.ID == setup.ID && strings.Contains(m.Text, "Arena 5+3: how long") && len(buttons(m)) == 3
	})

	// The typed form starts one: the card, nobody in it yet.
	say(srv, group, alice, "/tournament 20+0 15m")
	tc := waitMessage(t, srv, group.ID, "the tournament card", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Arena 20+0 · 15 min") && len(buttons(m)) == 3
	})
	if !strings.Contains(tc.Text, "15 min left") || !strings.Contains(tc.Text, "Nobody has joined yet") {
		t.Errorf("the new card:\n%s", tc.Text)
	}
	// A second tournament, typed or by the buttons still on the question, is refused.
	say(srv, group, carol, "/tournament 3+2 30m")
	waitMessage(t, srv, group.ID, "a second tournament refused", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "already running in this chat")
	})
	if toast := tap(t, srv, group, carol, setup.ID, buttons(setup)[1][1]); !strings.Contains(toast, "already running") {
		t.Errorf("a second tournament by the buttons: toast %q", toast)
	}

	join := tourButton(t, tc, "tj")
	if toast := tap(t, srv, group, alice, tc.ID, join); !strings.Contains(toast, "You are in") {
		t.Errorf("Alice's join: toast %q", toast)
	}
	if toast := tap(t, srv, group, alice, tc.ID, join); !strings.Contains(toast, "in this tournament already") {
		t.Errorf("Alice's second join: toast %q", toast)
	}
	if toast := tap(t, srv, group, eve, tc.ID, tourButton(t, tc, "tp")); !strings.Contains(toast, "not in this tournament") {
		t.Errorf("a pause by someone not in it: toast %q", toast)
	}
	tap(t, srv, group, boris, tc.ID, join)

	// Alice and Boris are paired at once: a card in each private chat,
	// each in its reader's language.
	aCard := tourGameCard(t, srv, alice, 0, "Alice's first game")
	bCard := tourGameCard(t, srv, boris, 0, "Boris's first game")
	if !strings.Contains(aCard.Text, "White to move: Alice") {
		t.Errorf("Alice's card:\n%s", aCard.Text)
	}
	if !strings.Contains(bCard.Text, "ходят белые: Alice") {
		t.Errorf("Boris's card is not in Russian:\n%s", bCard.Text)
	}

	// Carol joins; Dave never started the bot: the toast sends him there,
	// and /start with its link joins him.
	tap(t, srv, group, carol, tc.ID, join)
	q := srv.CallbackQuery(group, dave.u, tc.ID, join)
	srv.PushUpdate(q)
	if toast := waitAnswer(t, srv, q.CallbackQuery.ID, join); !strings.Contains(toast, "start me there first") {
		t.Errorf("Dave's join before starting the bot: toast %q", toast)
	}
	var link string
	for _, c := range srv.CallsTo("answerCallbackQuery") {
		if c.Params["callback_query_id"] == q.CallbackQuery.ID {
			link = c.Params["url"]
		}
	}
	payload, ok := strings.CutPrefix(link, "https://t.me/"+srv.Bot().UserName+"?start=")
	if !ok {
		t.Fatalf("the toast's link %q does not open the bot with a start payload", link)
	}
	say(srv, dave.chat, dave, "/start "+payload)
	cCard := tourGameCard(t, srv, carol, 0, "Carol's first game")
	dCard := tourGameCard(t, srv, dave, 0, "Dave's first game")
	if !strings.Contains(dCard.Text, "White to move: Carol") {
		t.Errorf("Dave's card:\n%s", dCard.Text)
	}
	if m := card(t, srv, group.ID, tc.ID); m.Edits != 0 {
		t.Errorf("the group's card was edited %d times within its first seconds; joins show at its next edit", m.Edits)
	}

	// Alice moves by the picker on her card; Boris's card shows it, and he
	// answers by typing in his chat (a wrong move first: the reply lists
	// the legal ones), then resigns.
	pickFirstMove(t, srv, alice.chat, alice, aCard.ID)
	waitMessage(t, srv, boris.chat.ID, "Alice's move on Boris's card", func(m telegramtest.Msg) bool {
		return m.ID == bCard.ID && strings.Contains(m.Text, "ходят чёрные") && len(buttons(m)) > 0
	})
	say(srv, boris.chat, boris, "a1-b2")
	legal := waitMessage(t, srv, boris.chat.ID, "the legal moves", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Возможные ходы: ")
	})
	reply := regexp.MustCompile(`Возможные ходы: ([a-h][1-8][-:][a-h][1-8])`).FindStringSubmatch(legal.Text)
	if reply == nil {
		t.Fatalf("no legal move in %q", legal.Text)
	}
	say(srv, boris.chat, boris, reply[1])
	// Neither player is sent turn notices: the board in their own chat is it.
	defer func() {
		for _, u := range []user{alice, boris, carol, dave} {
			for _, m := range srv.Messages(u.chat.ID) {
				if m.FromBot && strings.HasPrefix(m.Text, "♟") {
					t.Errorf("%s got a turn notice: %q", u.u.FirstName, m.Text)
				}
			}
		}
	}()
	waitMessage(t, srv, alice.chat.ID, "Boris's typed move on Alice's card", func(m telegramtest.Msg) bool {
		return m.ID == aCard.ID && strings.Contains(m.Text, reply[1]) && strings.Contains(m.Text, "White to move")
	})
	resign(t, srv, boris.chat, boris)
	waitMessage(t, srv, boris.chat.ID, "the result in Boris's chat", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "1-0")
	})
	// Both cards show the end; neither offers a rematch (the tournament
	// pairs them).
	for _, c := range []struct {
		u  user
		id int
	}{{alice, aCard.ID}, {boris, bCard.ID}} {
		final := waitMessage(t, srv, c.u.chat.ID, "the final card", func(m telegramtest.Msg) bool {
			return m.ID == c.id && strings.Contains(m.Text, "1-0")
		})
		for _, b := range buttons(final) {
			if strings.HasPrefix(b[1], "r|") {
				t.Errorf("%s's final card offers a rematch: %v", c.u.u.FirstName, buttons(final))
			}
		}
	}

	// Carol and Dave each move by the picker on their own card (Dave's is
	// the second card: his picks are shown on it); then Carol offers a
	// draw in her chat and Dave accepts on his card.
	pickFirstMove(t, srv, carol.chat, carol, cCard.ID)
	waitMessage(t, srv, dave.chat.ID, "Carol's move on Dave's card", func(m telegramtest.Msg) bool {
		return m.ID == dCard.ID && strings.Contains(m.Text, "Black to move: Dave") && len(buttons(m)) > 0
	})
	pickFirstMove(t, srv, dave.chat, dave, dCard.ID)
	waitMessage(t, srv, carol.chat.ID, "Dave's move on Carol's card", func(m telegramtest.Msg) bool {
		return m.ID == cCard.ID && strings.Contains(m.Text, "White to move: Carol")
	})
	say(srv, carol.chat, carol, "/draw")
	waitMessage(t, srv, dave.chat.ID, "the draw offer told in Dave's chat", func(m telegramtest.Msg) bool {
		return m.FromBot && m.ReplyTo == dCard.ID && strings.Contains(m.Text, "Carol offers Dave a draw")
	})
	offer := waitMessage(t, srv, dave.chat.ID, "the draw offer on Dave's card", func(m telegramtest.Msg) bool {
		for _, b := range buttons(m) {
			if m.ID == dCard.ID && strings.HasPrefix(b[1], "dy|") {
				return true
			}
		}
		return false
	})
	for _, b := range buttons(offer) {
		if strings.HasPrefix(b[1], "dy|") {
			tap(t, srv, dave.chat, dave, dCard.ID, b[1])
		}
	}

	// All four are free: the leader meets the next (Alice–Carol), Dave
	// meets Boris; nobody meets the one just played.
	a2 := tourGameCard(t, srv, alice, aCard.ID, "Alice's second game")
	c2 := tourGameCard(t, srv, carol, cCard.ID, "Carol's second game")
	d2 := tourGameCard(t, srv, dave, dCard.ID, "Dave's second game")
	b2 := tourGameCard(t, srv, boris, bCard.ID, "Boris's second game")
	if !strings.Contains(a2.Text, "Alice") || !strings.Contains(a2.Text, "Carol") || !strings.Contains(c2.Text, "Alice") {
		t.Errorf("second round: Alice's card %q, Carol's %q; want Alice–Carol", a2.Text, c2.Text)
	}
	if !strings.Contains(b2.Text, "Dave") {
		t.Errorf("second round: Boris's card %q; want Dave–Boris", b2.Text)
	}

	// A few seconds on, the group's card shows the standings.
	clock.Advance(5 * time.Second)
	waitMessage(t, srv, group.ID, "the standings on the card", func(m telegramtest.Msg) bool {
		return m.ID == tc.ID && strings.Contains(m.Text, "1. Alice — 2 · 2 ⚔️") && strings.Contains(m.Text, "Boris — 0 · 0 ⚔️")
	})

	// The bot restarts: the tournament is in the store, not in the process.
	stop()
	startClockedWithLogs(t, srv, clock, vars)

	// Boris resigns again, once both have moved (before, the game would
	// be aborted): Dave and Boris just played, so they wait.
	openTourGame(t, srv, dave, boris, d2, b2)
	resign(t, srv, boris.chat, boris)
	clock.Advance(5 * time.Second)
	waitMessage(t, srv, group.ID, "Dave's win on the card", func(m telegramtest.Msg) bool {
		return m.ID == tc.ID && strings.Contains(m.Text, "Dave — 3 · 1 2")
	})

	// Time is up: the game in progress goes on, nobody is paired.
	clock.Advance(15 * time.Minute)
	over := waitMessage(t, srv, group.ID, "time up on the card", func(m telegramtest.Msg) bool {
		return m.ID == tc.ID && strings.Contains(m.Text, "Time is up") && len(buttons(m)) == 0
	})
	if strings.Contains(over.Text, "Over") {
		t.Errorf("the tournament ended with a game in progress:\n%s", over.Text)
	}
	openTourGame(t, srv, alice, carol, a2, c2)
	resign(t, srv, carol.chat, carol)
	final := waitMessage(t, srv, group.ID, "the final standings", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Arena 20+0 is over!")
	})
	for _, want := range []string{"🥇 Alice — 4", "🥈 Dave — 3", "🥉 Carol — 1", "1. Alice — 4 · 2 2 🔥", "games: +Boris, +Carol",
		"Dave — 3 · 1 2", "games: ½Carol, +Boris", "4. Boris — 0 · 0 0", "games: −Alice, −Dave"} {
		if !strings.Contains(final.Text, want) {
			t.Errorf("the final standings lack %q:\n%s", want, final.Text)
		}
	}
	waitMessage(t, srv, group.ID, "the finished card", func(m telegramtest.Msg) bool {
		return m.ID == tc.ID && strings.Contains(m.Text, "Over.")
	})
	// The final standings went out once and are recorded: a few seconds on
	// the clock does not post them again, and the group may start the
	// next tournament.
	clock.Advance(10 * time.Second)
	say(srv, group, carol, "/tournament 3+2 15m")
	waitMessage(t, srv, group.ID, "the next tournament's card", func(m telegramtest.Msg) bool {
		return m.FromBot && m.ID > final.ID && strings.Contains(m.Text, "Arena 3+2 · 15 min")
	})
	finals := 0
	for _, m := range srv.Messages(group.ID) {
		if m.FromBot && strings.Contains(m.Text, "is over!") {
			finals++
		}
	}
	if finals != 1 {
		t.Errorf("the final standings were posted %d times, want once", finals)
	}
	// Nobody was paired after Dave and Boris's game: they had just played
	// each other, and then the time was up.
	for _, c := range []struct {
		u    user
		last int
	}{{dave, d2.ID}, {boris, b2.ID}} {
		for _, m := range srv.Messages(c.u.chat.ID) {
			if m.FromBot && m.Kind == "photo" && m.ID > c.last {
				t.Errorf("%s got another game: %q", c.u.u.FirstName, m.Text)
			}
		}
	}
}

// openTourGame plays the first move of each side of the tournament game
// between a and b (whose cards are ac and bc), White by the picker, so
// that it is a game that counts, not one to abort (play/abort.go).
func openTourGame(t *testing.T, srv *telegramtest.Server, a, b user, ac, bc telegramtest.Msg) {
	t.Helper()
	white, black, wc, bcard := a, b, ac, bc
	if m := card(t, srv, b.chat.ID, bc.ID); strings.Contains(m.Text, "White to move: "+b.u.FirstName) || strings.Contains(m.Text, "ходят белые: "+b.u.FirstName) {
		white, black, wc, bcard = b, a, bc, ac
	}
	turn := func(u user, id int, edits int) {
		waitMessage(t, srv, u.chat.ID, u.u.FirstName+"'s turn", func(m telegramtest.Msg) bool {
			return m.ID == id && m.Edits > edits && len(buttons(m)) > 0
		})
	}
	before := card(t, srv, black.chat.ID, bcard.ID).Edits
	pickFirstMove(t, srv, white.chat, white, wc.ID)
	turn(black, bcard.ID, before)
	before = card(t, srv, white.chat.ID, wc.ID).Edits
	pickFirstMove(t, srv, black.chat, black, bcard.ID)
	turn(white, wc.ID, before)
}
