package miniapp

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/rules"
)

// lobbyAuth signs an initData for the harness's user u with no game: the
// app opened from its direct link without startapp.
func (h *harness) lobbyAuth(u User) string {
	return SignUser(h.tg.Token(), u, "", h.clock.Now())
}

// The lobby lists what a game against the AI may be (the three rulesets,
// every level, the colours) and the viewer's games in progress, in their
// language; a new game is made in the player's private chat, its card
// posted there by the bot, and answered with its board.
func TestLobbyStartsAGameAgainstTheAI(t *testing.T) {
	h := newHarness(t, nil)
	r := h.reps[0]
	bob := User{ID: h.bob.ID, FirstName: "Bob", LanguageCode: "ru"}
	var lb lobby
	if code := h.call(r, "GET", "/api/lobby", h.lobbyAuth(bob), "", &lb); code != http.StatusOK {
		t.Fatalf("GET /api/lobby: %d", code)
	}
	if len(lb.Rules) != 3 || lb.Rules[2].ID != "russian" || lb.Rules[2].Name != "Русские шашки" {
		t.Errorf("rules %+v; want bashni, bashni-mp, russian named in Russian", lb.Rules)
	}
	if len(lb.Levels) != 19 || lb.Levels[0].ID != "1" || lb.Levels[18].ID != "19" || lb.Levels[18].Name != "Чемпион" {
		t.Errorf("levels %+v; want 1 to 19 with names, the top one Чемпион", lb.Levels)
	}
	if len(lb.Colors) != 3 || lb.Colors[0].ID != "white" || lb.Texts["app_lobby_start"] != "Играть с ИИ" {
		t.Errorf("colours %+v, start %q", lb.Colors, lb.Texts["app_lobby_start"])
	}
	if len(lb.Games) != 1 || lb.Games[0].ID != h.gameID || lb.Games[0].Opponent != "Alice" || lb.Games[0].YourMove {
		t.Errorf("games %+v; want the game against Alice, hers to move", lb.Games)
	}

	var st state
	if code := h.call(r, "POST", "/api/lobby/ai", h.lobbyAuth(bob), `{"rules":"russian","level":5,"color":"white"}`, &st); code != http.StatusOK {
		t.Fatalf("POST /api/lobby/ai: %d", code)
	}
	if st.ID == "" || st.ID == h.gameID || st.You != "w" || st.Ply != 0 || !st.Active || st.Black.AI != 5 || st.Rules != "Русские шашки" || len(st.Legal) != 7 || st.Towers {
		t.Fatalf("the new game: %+v; want Bob (White) against level 5 in Russian draughts, no towers", st)
	}
	g, err := r.svc.Game(h.ctx, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if start := g.Rules().StartPosition(); g.ChatID() != bob.ID || start.Variant() != rules.Russian {
		t.Errorf("stored in chat %d, %v; want Bob's private chat, Russian", g.ChatID(), start.Variant())
	}
	// The card in Bob's private chat, in his language, opening this game.
	card := h.tg.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "sendPhoto" && c.ChatID() == bob.ID
	})
	if !card.OK() || !strings.Contains(card.Params["reply_markup"], "startapp="+st.ID) || !strings.Contains(card.Text(), "Русские шашки") {
		t.Errorf("the card: %s", card)
	}
	// And the lobby lists it now, first: it is his move.
	if code := h.call(r, "GET", "/api/lobby", h.lobbyAuth(bob), "", &lb); code != http.StatusOK || len(lb.Games) != 2 || lb.Games[0].ID != st.ID || !lb.Games[0].YourMove || lb.Games[0].Rules != "Русские шашки" || lb.Games[1].ID != h.gameID {
		t.Errorf("games after the start: %d %+v", code, lb.Games)
	}
}

// Bad requests to start a game are refused with a clear answer, by the
// status of their kind, and change nothing: no game, no card.
func TestLobbyRefusals(t *testing.T) {
	h := newHarnessWith(t, gameSpec{maxGames: 2}, nil)
	r := h.reps[0]
	alice := User{ID: h.alice.ID, FirstName: "Alice", LanguageCode: "en"}
	auth := h.lobbyAuth(alice)
	games := func() int {
		gs, err := r.svc.ActiveGames(h.ctx, alice.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		return len(gs)
	}
	for _, tc := range []struct {
		name, auth, body string
		code             int
		text             string
	}{
		{"unknown rules", auth, `{"rules":"chess","level":3,"color":"white"}`, http.StatusUnprocessableEntity, "no such rules"},
		{"rules by another name", auth, `{"rules":"Russian","level":3,"color":"white"}`, http.StatusUnprocessableEntity, "no such rules"},
		{"level 0", auth, `{"rules":"bashni","level":0,"color":"white"}`, http.StatusUnprocessableEntity, "no such AI level"},
		{"level 20", auth, `{"rules":"bashni","level":20,"color":"white"}`, http.StatusUnprocessableEntity, "no such AI level"},
		{"colour", auth, `{"rules":"bashni","level":3,"color":"green"}`, http.StatusUnprocessableEntity, "no such colour"},
		{"unknown field", auth, `{"rules":"bashni","level":3,"color":"white","chat":-100}`, http.StatusBadRequest, "bad request"},
		{"not JSON", auth, `rules=bashni`, http.StatusBadRequest, "bad request"},
		{"two objects", auth, `{"rules":"bashni","level":3}{"rules":"bashni","level":3}`, http.StatusBadRequest, "bad request"},
		{"no initData", "", `{"rules":"bashni","level":3,"color":"white"}`, http.StatusUnauthorized, "Telegram did not vouch"},
		{"forged", SignUser("1:other", alice, "", time.Now()), `{"rules":"bashni","level":3,"color":"white"}`, http.StatusUnauthorized, "Telegram did not vouch"},
	} {
		var body errorBody
		if code := h.call(r, "POST", "/api/lobby/ai", tc.auth, tc.body, &body); code != tc.code || !strings.Contains(body.Error, tc.text) {
			t.Errorf("%s: %d %q; want %d %q", tc.name, code, body.Error, tc.code, tc.text)
		}
	}
	if n := games(); n != 1 {
		t.Fatalf("after the refusals Alice plays %d games; want the one", n)
	}
	if code := h.call(r, "GET", "/api/lobby", "", "", nil); code != http.StatusUnauthorized {
		t.Errorf("the lobby without initData: %d; want 401", code)
	}
	// Her second game is her last under the cap of two.
	var st state
	if code := h.call(r, "POST", "/api/lobby/ai", auth, `{"rules":"bashni-mp","level":18,"color":"white"}`, &st); code != http.StatusOK {
		t.Fatalf("a game at the cap's edge: %d", code)
	}
	if !st.Towers {
		t.Errorf("the other school's game says it has no towers to read")
	}
	h.tg.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "sendPhoto" && c.ChatID() == alice.ID && strings.Contains(c.Params["reply_markup"], "startapp="+st.ID)
	})
	var body errorBody
	if code := h.call(r, "POST", "/api/lobby/ai", auth, `{"rules":"bashni","level":1,"color":"random"}`, &body); code != http.StatusTooManyRequests || !strings.Contains(body.Error, "finish or resign one") {
		t.Errorf("over the cap: %d %q; want 429", code, body.Error)
	}
	if n := games(); n != 2 {
		t.Errorf("over the cap Alice plays %d games; want 2", n)
	}
	// Once one is over, she may start another.
	if _, err := r.svc.Resign(h.ctx, st.ID, alice.ID); err != nil {
		t.Fatal(err)
	}
	if code := h.call(r, "POST", "/api/lobby/ai", auth, `{"rules":"bashni","level":1,"color":"white"}`, &st); code != http.StatusOK {
		t.Fatalf("after resigning: %d; want a new game", code)
	}
	h.tg.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "sendPhoto" && c.ChatID() == alice.ID && strings.Contains(c.Params["reply_markup"], "startapp="+st.ID)
	})
	// Cards go out in order: none came from a refusal.
	n := 0
	for _, c := range h.tg.CallsTo("sendPhoto") {
		if c.ChatID() == alice.ID {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d cards in Alice's chat; want one for each of the two games started", n)
	}
}

// The lobby shows the viewer's progress in the course, in their language:
// the lesson they are at and the stars of each stage (issue 41).
func TestLobbyShowsTheCourse(t *testing.T) {
	h := newHarness(t, nil)
	r := h.reps[0]
	bob := User{ID: h.bob.ID, FirstName: "Bob", LanguageCode: "ru"}
	first := training.Lessons[0]
	for i, task := range first.Tasks {
		if _, err := r.app.opts.Course.Try(h.ctx, bob.ID, 0, i, task.Right[0]); err != nil {
			t.Fatal(err)
		}
	}
	var lb lobby
	if code := h.call(r, "GET", "/api/lobby", h.lobbyAuth(bob), "", &lb); code != http.StatusOK {
		t.Fatalf("GET /api/lobby: %d", code)
	}
	c := lb.Course
	if c == nil || c.Lesson != 2 || c.Lessons != len(training.Lessons) || c.Stars != len(first.Tasks) || c.Tasks != training.Tasks() ||
		len(c.Stages) != len(training.Stages()) || c.Stages[0].Name != "Ходы" || c.Stages[0].Stars != len(first.Tasks) || !strings.Contains(c.Line, "Курс: урок 2 из") {
		t.Errorf("the lobby's course %+v; want lesson 2, the first lesson's stars in the first stage, in Russian", c)
	}
}
