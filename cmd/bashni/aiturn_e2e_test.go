package main

import (
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/storage/bolt"
)

// SIGKILL while the AI thinks (bbolt, polling): after the restart the
// AI's move arrives and the card shows it, with nobody touching the game.
func TestCrashWhileTheAIThinks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the bot as a child process twice")
	}
	srv := telegramtest.New(t)
	env := withDefaults(t, srv, map[string]string{"BASHNI_CLOCK_INTERVAL": "1s"})
	// The first process's AI has a budget of nodes no machine searches
	// within the AI's time (ai.max_nodes replaces the level's limits,
	// movetime included): it thinks until the service's AITimeout (10 s),
	// long past the board's hold after which "typing" goes out, however
	// fast the machine. The second process's AI answers at once.
	thinking := maps.Clone(env)
	thinking["BASHNI_AI_MAX_NODES"] = strconv.Itoa(1 << 40)
	alice := newUser(9401, "Alice", "en")
	first := startChild(t, thinking)
	say(srv, alice.chat, alice, "/play 18 white")
	c := waitMessage(t, srv, alice.chat.ID, "the card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	say(srv, alice.chat, alice, "c3-d4")
	// "typing": the AI has started thinking about its answer.
	srv.WaitFor(t, 30*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "sendChatAction" && c.ChatID() == alice.chat.ID
	})
	first.kill(t)
	killed := time.Now()

	st, err := bolt.Open(env["BASHNI_BOLT_PATH"], time.Now)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := st.ActiveGamesByUser(t.Context(), alice.u.ID)
	if err != nil || len(ids) != 1 {
		t.Fatalf("Alice's games: %v, %v", ids, err)
	}
	g, err := st.Game(t.Context(), ids[0])
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Moves) != 1 {
		t.Fatalf("killed with moves %q stored: the test killed too late, or the move was lost", g.Moves)
	}

	second := startChild(t, env)
	answered := func() bool {
		m, ok := srv.Message(alice.chat.ID, c.ID)
		return ok && m.Edits > 0 && strings.Contains(m.Text, "c3-d4") && m.ReplyMarkup != nil && len(m.ReplyMarkup.InlineKeyboard) > 0
	}
	if !srv.WaitUntil(90*time.Second, answered) {
		m, _ := srv.Message(alice.chat.ID, c.ID)
		t.Fatalf("the card never showed the AI's answer: %q\nlogs of the second process:\n%s", m.Text, second.logs)
	}
	second.stop(t)
	t.Logf("the AI's answer came %v after the kill", time.Since(killed).Round(time.Millisecond))

	st, err = bolt.Open(env["BASHNI_BOLT_PATH"], time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err = st.Game(t.Context(), ids[0])
	if err != nil || len(g.Moves) != 2 {
		t.Fatalf("after the restart: moves %v (%v), want Alice's and the AI's", g.Moves, err)
	}
}
