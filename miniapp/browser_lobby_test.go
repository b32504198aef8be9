package miniapp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// The lobby in a real browser: Bob opens the app with no game, picks
// Russian draughts, level 4 and Black, and starts; the page shows the new
// game's live board from Black's side, the card goes to his private chat,
// the AI (White) moves first, Bob answers by tapping, and the AI's reply
// reaches the board by the event stream.
func TestBrowserLobbyStartsARussianGame(t *testing.T) {
	browser := newBrowser(t)
	h := newHarnessWith(t, gameSpec{thinker: play.NewEnginePool(1, 1, ai.Limits{Nodes: 500})}, nil)
	r := h.reps[0]
	aiDone := make(chan struct{})
	go func() { defer close(aiDone); r.svc.RunAI(h.ctx, 1, r.bot.AIHooks()) }()
	t.Cleanup(func() { h.cancel(); <-aiDone })

	bob := User{ID: h.bob.ID, FirstName: "Bob", LanguageCode: "en"} // reads English here
	tab := h.tab(browser, r, h.lobbyAuth(bob), lightTheme)
	if err := do(tab, chromedp.WaitVisible(chromedp.CSS(`body[data-lobby="ready"]`))); err != nil {
		got, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("no lobby: %v; page: %q", err, got)
	}
	// His game with Alice is listed, to reopen.
	if n, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll('#lobby-games button[data-game="`+h.gameID+`"]').length`)); err != nil || n != 1 {
		t.Errorf("the game in progress is listed %d times (%v); want once", n, err)
	}
	// His progress in the course is shown under it (none yet: lesson 1, no stars).
	if got, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("lobby-course").innerText`)); err != nil || !strings.Contains(got, "Course: lesson 1 of") || !strings.Contains(got, "The moves ⭐ 0/") {
		t.Errorf("the course in the lobby: %q, %v", got, err)
	}
	if err := do(tab,
		chromedp.Click(chromedp.CSS(`#lobby-rules button[data-id="russian"]`)),
		chromedp.Click(chromedp.CSS(`#level-up`)),
		chromedp.Click(chromedp.CSS(`#lobby-colors button[data-id="black"]`)),
	); err != nil {
		t.Fatal(err)
	}
	level, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("level-num").textContent + " " + document.getElementById("level-name").textContent`))
	if err != nil || level != "4 Weekend player" {
		t.Errorf("the level shown: %q (%v); want 4 Weekend player", level, err)
	}
	long, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("lobby-rules-long").textContent`))
	if long != "Classic draughts: captured pieces leave the board." {
		t.Errorf("the rules described as %q", long)
	}
	screenshot(t, tab, "lobby-light.png")
	if err := do(tab, chromedp.Click(chromedp.CSS(`#lobby-start`))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.body.dataset.view === "game" && document.body.dataset.ply !== undefined`,
		chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		got, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("toast").textContent`))
		t.Fatalf("the new game's board never opened: %v (toast %q)", err, got)
	}
	// The card in Bob's private chat names the game the page shows.
	card := h.tg.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "sendPhoto" && c.ChatID() == bob.ID && c.OK()
	})
	id := strings.TrimSuffix(strings.SplitN(card.Params["reply_markup"]+"startapp=", "startapp=", 2)[1], "")
	shown, _ := chromedp.Run(tab, chromedp.Evaluate[string](`gameID`))
	if shown == "" || !strings.HasPrefix(id, shown) {
		t.Fatalf("the page shows game %q; the card in Bob's chat opens %q", shown, id)
	}
	g, err := r.svc.Game(h.ctx, shown)
	if err != nil {
		t.Fatal(err)
	}
	if start := g.Rules().StartPosition(); start.Variant() != rules.Russian || g.White().AILevel != 4 || g.Black().UserID != bob.ID {
		t.Errorf("stored: %v, White %+v, Black %+v; want Russian, level 4 against Bob", start.Variant(), g.White(), g.Black())
	}
	// The AI plays first; the board hears it.
	waitPly(t, tab, 1)
	status, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	if !strings.HasPrefix(status, "Russian draughts · ") {
		t.Errorf("status %q; want it to say Russian draughts", status)
	}
	if hint, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("hint").textContent`)); hint != "Tap a piece to move it, then the square to go to." {
		t.Errorf("hint %q; want one about pieces (Russian draughts has no towers)", hint)
	}
	if flipped, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#player-bottom").dataset.color`)); flipped != "b" {
		t.Errorf("Bob's side at the bottom: %q; want b", flipped)
	}
	// Bob plays the first legal move the page offers, by tapping.
	mv, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`game.legal[0].path`))
	if err != nil || len(mv) < 2 {
		t.Fatalf("legal moves on the page: %v (%v)", mv, err)
	}
	tap(t, tab, mv[0])
	tap(t, tab, mv[len(mv)-1])
	waitPly(t, tab, 3) // his move, then the AI's, live
	screenshot(t, tab, "lobby-russian-game-light.png")
	if g, err := r.svc.Game(h.ctx, shown); err != nil || g.Ply() != 3 {
		t.Errorf("stored at ply %v (%v); want 3", g.Ply(), err)
	}
}

// telegramStub stands in for Telegram's script in a test's page: it
// records the calls the lobby makes (switchInlineQuery, the back button).
const telegramStub = `window.Telegram = { WebApp: {
  initData: "", themeParams: ` + "THEME" + `, colorScheme: "dark", version: "8.0",
  ready() {}, expand() {}, onEvent() {},
  isVersionAtLeast(v) { return Number(v) <= 8; },
  switchInlineQuery(query, types) { window.switched = [query].concat(types); },
  BackButton: { shown: false, handlers: [], show() { this.shown = true; }, hide() { this.shown = false; },
    onClick(f) { this.handlers.push(f); }, offClick(f) { this.handlers = this.handlers.filter((h) => h !== f); } },
} };`

// In Russian, in the dark theme, inside Telegram (a stand-in for its
// script): "Challenge a friend" asks Telegram for the bot's inline mode
// with the chosen rules in a chat of the player's choice; over the cap of
// games in progress the start is refused with the reason and the page
// stays in the lobby; a game opened from the list has Telegram's back
// button, which returns to the lobby.
func TestBrowserLobbyFriendAndRefusal(t *testing.T) {
	browser := newBrowser(t)
	h := newHarnessWith(t, gameSpec{maxGames: 1}, nil)
	theme, _ := json.Marshal(darkTheme)
	h.preload = strings.Replace(telegramStub, "THEME", string(theme), 1)
	r := h.reps[0]
	bob := User{ID: h.bob.ID, FirstName: "Bob", LanguageCode: "ru"}
	tab := h.tab(browser, r, h.lobbyAuth(bob), darkTheme)
	if err := do(tab, chromedp.WaitVisible(chromedp.CSS(`body[data-lobby="ready"]`))); err != nil {
		t.Fatal(err)
	}
	if err := do(tab,
		chromedp.Click(chromedp.CSS(`#lobby-rules button[data-id="bashni-mp"]`)),
		chromedp.Click(chromedp.CSS(`#lobby-friend`)),
	); err != nil {
		t.Fatalf("the friend's button: %v", err)
	}
	switched, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`window.switched || []`))
	if err != nil || strings.Join(switched, " ") != "bashni-mp users groups" {
		t.Errorf("switchInlineQuery got %q (%v); want the rules' name, in users' and groups' chats", switched, err)
	}
	screenshot(t, tab, "lobby-dark-ru.png")

	// Bob plays his one game allowed here already.
	if err := do(tab, chromedp.Click(chromedp.CSS(`#lobby-start`))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!document.getElementById("toast").hidden && document.getElementById("toast").textContent.includes("доиграйте или сдайте")`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Errorf("no refusal shown: %v", err)
	}
	if view, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.view + " " + document.getElementById("lobby-start").disabled`)); view != "lobby false" {
		t.Errorf("after the refusal: %q; want the lobby, its button ready again", view)
	}
	if gs, err := r.svc.ActiveGames(h.ctx, bob.ID, 0); err != nil || len(gs) != 1 {
		t.Errorf("Bob's games after the refusal: %d (%v); want 1", len(gs), err)
	}

	// His game from the list, and back.
	if err := do(tab, chromedp.Click(chromedp.CSS(`#lobby-games button[data-game="`+h.gameID+`"]`))); err != nil {
		t.Fatal(err)
	}
	waitPly(t, tab, 0)
	if shown, _ := chromedp.Run(tab, chromedp.Evaluate[bool](`Telegram.WebApp.BackButton.shown && document.body.dataset.view === "game"`)); !shown {
		t.Fatal("the game opened from the list has no back button")
	}
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`(Telegram.WebApp.BackButton.handlers.forEach((f) => f()), true)`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.body.dataset.view === "lobby" && !Telegram.WebApp.BackButton.shown`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Errorf("the back button did not return to the lobby: %v", err)
	}
}
