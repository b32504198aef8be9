package miniapp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play"
)

// The page in a real browser: headless Chromium (Debian's chromium, which
// scripts/test.sh installs) driven from Go by chromedp.

// Theme colours as Telegram's apps send them (themeParams).
var (
	lightTheme = map[string]string{"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#999999",
		"button_color": "#2481cc", "button_text_color": "#ffffff", "secondary_bg_color": "#efeff3"}
	darkTheme = map[string]string{"bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#708499",
		"button_color": "#5288c1", "button_text_color": "#ffffff", "secondary_bg_color": "#232e3c"}
)

// artifactDir is where screenshots go: $BASHNI_ARTIFACTS, else
// artifacts/miniapp at the top of the repository (docs/miniapp.md: "The live
// board"; not committed).
func artifactDir(t *testing.T) string {
	dir := os.Getenv("BASHNI_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "artifacts", "miniapp")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newBrowser starts a headless Chromium for the test.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		t.Skip("no chromium on PATH: scripts/test.sh installs Debian's chromium (apt-get install chromium)")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// Nothing but the test's own servers: Telegram's script fails at
		// once instead of waiting for a network the tests do not have.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(390, 844),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelBrowser(); cancelAlloc() })
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		t.Fatalf("starting chromium: %v", err)
	}
	return bctx
}

// tab opens the game in a new tab of the browser as u would from Telegram:
// the launch parameters in the URL fragment, at phone size.
func (h *harness) tab(browser context.Context, r *replica, auth string, theme map[string]string) context.Context {
	h.t.Helper()
	return h.tabAt(browser, r, auth, theme, "")
}

// tabAt is tab with a query string in the page's URL (Telegram puts a
// direct link's tgWebAppStartParam there).
func (h *harness) tabAt(browser context.Context, r *replica, auth string, theme map[string]string, query string) context.Context {
	h.t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	h.t.Cleanup(cancel)
	themeJSON, _ := json.Marshal(theme)
	frag := url.Values{}
	frag.Set("tgWebAppData", auth)
	frag.Set("tgWebAppThemeParams", string(themeJSON))
	frag.Set("tgWebAppVersion", "8.0")
	frag.Set("tgWebAppPlatform", "android")
	// Any exception the page throws fails the test: a broken script
	// otherwise shows only as a board that never changes.
	if err := chromedp.Do(ctx); err != nil {
		h.t.Fatal(err)
	}
	var mu sync.Mutex
	var thrown []string
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			mu.Lock()
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			thrown = append(thrown, fmt.Sprintf("%s (%s:%d)", msg, d.URL, d.LineNumber+1))
			mu.Unlock()
		}
	}); err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range thrown {
			h.t.Errorf("the page threw: %s", e)
		}
	})
	if h.preload != "" {
		if err := chromedp.Do(ctx, preload(h.preload)); err != nil {
			h.t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)),
		chromedp.Navigate(r.web.URL+"/"+query+"#"+frag.Encode()),
	); err != nil {
		h.t.Fatal(err)
	}
	return ctx
}

// preload runs script in every document the tab opens from now on, before
// the page's own scripts.
func preload(script string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return chromedp.Void{}, err
	}
}

// waitPly waits until the page shows the game at ply.
func waitPly(t *testing.T, ctx context.Context, ply int) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ply === "`+strconv.Itoa(ply)+`"`,
		chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.ply + " " + document.getElementById("status").textContent`))
		t.Fatalf("the page never showed ply %d (shows %q): %v", ply, got, err)
	}
}

// tap clicks the square sq on the board.
func tap(t *testing.T, ctx context.Context, sq string) {
	t.Helper()
	if err := do(ctx, chromedp.Click(chromedp.CSS(`rect.hit[data-sq="`+sq+`"]`))); err != nil {
		t.Fatalf("tapping %s: %v", sq, err)
	}
}

// drag presses on square from, moves to square to and releases there.
func drag(t *testing.T, ctx context.Context, from, to string) {
	t.Helper()
	at := func(sq string) []float64 {
		xy, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](
			`(() => { const r = document.querySelector('rect.hit[data-sq="`+sq+`"]').getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`))
		if err != nil {
			t.Fatal(err)
		}
		return xy
	}
	a, b := at(from), at(to)
	if err := do(ctx,
		chromedp.MouseEvent(chromedp.MouseMoved, a[0], a[1]),
		chromedp.MouseEvent(chromedp.MousePressed, a[0], a[1], chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, (a[0]+b[0])/2, (a[1]+b[1])/2, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, b[0], b[1], chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, b[0], b[1], chromedp.ButtonLeft, chromedp.ClickCount(1)),
	); err != nil {
		t.Fatalf("dragging %s to %s: %v", from, to, err)
	}
}

// do runs browser actions, giving up after a while: a page that never gets
// where the test waits for fails the test instead of hanging it.
func do(ctx context.Context, actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(artifactDir(t), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// Alice plays by tapping, the card in the chat follows, Bob's board hears
// it live, and Bob's reply (made in the chat) reaches Alice's board.
func TestBrowserPlay(t *testing.T) {
	browser := newBrowser(t)
	h := newHarness(t, nil)
	r := h.reps[0]
	alice := h.tab(browser, r, h.initData(h.alice), lightTheme)
	bob := h.tab(browser, r, h.initData(h.bob), darkTheme)
	waitPly(t, alice, 0)
	waitPly(t, bob, 0)

	tap(t, alice, "c3")
	if _, err := chromedp.Run(alice, chromedp.Poll[bool](`document.querySelectorAll("circle.dest").length === 2`,
		chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("c3's destinations are not shown: %v", err)
	}
	tap(t, alice, "d4")
	waitPly(t, alice, 1)
	if g := h.stored(); g.Ply() != 1 || g.Moves()[0] != "c3-d4" {
		t.Fatalf("the store has %v; want [c3-d4]", g.Moves())
	}
	h.waitCard("c3-d4")
	waitPly(t, bob, 1) // live, by server-sent events

	// Bob answers from the chat (the service, as the picker does).
	if _, err := r.svc.Move(h.ctx, h.gameID, h.bob.ID, 1, "f6-e5"); err != nil {
		t.Fatal(err)
	}
	waitPly(t, alice, 2)
	// White must capture: d4:f6 puts Black's man under White's. This one
	// by dragging the tower from d4 to f6.
	drag(t, alice, "d4", "f6")
	waitPly(t, alice, 3)
	waitPly(t, bob, 3)
	if tower, err := chromedp.Run(bob, chromedp.Evaluate[string](`document.querySelector('rect.hit[data-sq="f6"]').dataset.tower`)); err != nil || tower != "wb" {
		t.Errorf("Bob's board shows f6 as %q (%v); want wb", tower, err)
	}
	screenshot(t, alice, "play-light.png")
	screenshot(t, bob, "play-dark.png")

	// Cut off, Alice's board reconnects by itself and shows the move made
	// meanwhile.
	r.web.CloseClientConnections()
	if _, err := r.svc.Move(h.ctx, h.gameID, h.bob.ID, 3, "g7:e5"); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(alice, chromedp.Poll[bool](`Number(document.body.dataset.reconnects || 0) >= 1`,
		chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Errorf("the board did not reconnect: %v", err)
	}
	waitPly(t, alice, 4)

	// A watcher sees the board but has no buttons.
	carol := tgbotapi.User{ID: 13, FirstName: "Carol", LanguageCode: "en"}
	watcher := h.tab(browser, r, h.initData(carol), lightTheme)
	waitPly(t, watcher, 4)
	if n, err := chromedp.Run(watcher, chromedp.Evaluate[int](`document.querySelectorAll("#actions button").length`)); err != nil || n != 0 {
		t.Errorf("the watcher has %d buttons (%v); want none", n, err)
	}
}

// Hold a tower: the sheet lists its pieces top to bottom. A capture with
// two paths to one square asks which, on the board.
func TestBrowserTowerAndPathChoice(t *testing.T) {
	browser := newBrowser(t)
	// White's man on e1 can go round the four black men either way.
	h := newHarnessFrom(t, "w:e1w,d2b,f2b,d4b,f4b,a7b", nil)
	alice := h.tab(browser, h.reps[0], h.initData(h.alice), darkTheme)
	waitPly(t, alice, 0)
	tap(t, alice, "e1")
	tap(t, alice, "e1") // the destination is where it started
	if _, err := chromedp.Run(alice, chromedp.Poll[bool](`document.querySelectorAll("rect.option").length === 2`,
		chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("no choice of path shown: %v", err)
	}
	screenshot(t, alice, "path-choice-dark.png")
	tap(t, alice, "g3")
	waitPly(t, alice, 1)
	if g := h.stored(); g.Moves()[0] != "e1:g3:e5:c3:e1" {
		t.Fatalf("played %v; want e1:g3:e5:c3:e1", g.Moves())
	}
	// Hold e1, now a tower of five: press, wait for the sheet, release.
	box, err := chromedp.Run(alice, chromedp.Evaluate[[]float64](
		`(() => { const r = document.querySelector('rect.hit[data-sq="e1"]').getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if err := do(alice,
		chromedp.MouseEvent(chromedp.MouseMoved, box[0], box[1]),
		chromedp.MouseEvent(chromedp.MousePressed, box[0], box[1], chromedp.ButtonLeft, chromedp.ClickCount(1))); err != nil {
		t.Fatal(err)
	}
	if err := do(alice, chromedp.WaitVisible(chromedp.CSS("#sheet-pieces li"))); err != nil {
		dbg, _ := chromedp.Run(alice, chromedp.Evaluate[string](`JSON.stringify({hidden: document.getElementById("sheet").hidden, n: document.querySelectorAll("#sheet-pieces li").length, at: (() => { const e = document.elementFromPoint(`+strconv.FormatFloat(box[0], 'f', 1, 64)+`, `+strconv.FormatFloat(box[1], 'f', 1, 64)+`); return e && e.outerHTML; })()})`))
		t.Fatalf("no sheet: %v; page: %s", err, dbg)
	}
	if err := do(alice, chromedp.MouseEvent(chromedp.MouseReleased, box[0], box[1], chromedp.ButtonLeft, chromedp.ClickCount(1))); err != nil {
		t.Fatal(err)
	}
	pieces, err := chromedp.Run(alice, chromedp.Evaluate[string](`[...document.querySelectorAll("#sheet-pieces li")].map(li => li.dataset.piece).join("")`))
	if err != nil || pieces != "wbbbb" {
		t.Errorf("the sheet lists %q (%v); want wbbbb", pieces, err)
	}
	screenshot(t, alice, "tower-dark.png")
	if g := h.stored(); g.Ply() != 1 {
		t.Errorf("holding a tower changed the game: ply %d", g.Ply())
	}
}

// A forged, altered or day-old initData: the page is refused (401) and the
// game does not change.
func TestBrowserUnauthorized(t *testing.T) {
	browser := newBrowser(t)
	h := newHarness(t, nil)
	u := User{ID: h.alice.ID, FirstName: "Alice", LanguageCode: "en"}
	good := h.initData(h.alice)
	for name, auth := range map[string]string{
		"forged":  SignUser("999:not-the-token", u, h.gameID, time.Now()),
		"altered": good[:len(good)-1] + string("0123456789abcdef"[(int(good[len(good)-1])+1)%16]),
		"day old": SignUser(h.tg.Token(), u, h.gameID, time.Now().Add(-25*time.Hour)),
	} {
		t.Run(name, func(t *testing.T) {
			ctx := h.tab(browser, h.reps[0], auth, lightTheme)
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.error === "401"`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
				t.Errorf("the page was not refused: %v", err)
			}
		})
	}
	if g := h.stored(); g.Ply() != 0 {
		t.Errorf("the game changed: ply %d", g.Ply())
	}
}

// A live game on the board: both clocks shown, White's running; a move
// books its time; then Black's flag falls (the injected clock moves past
// the stored deadline), the bot's clock tick ends the game on time, and
// the board shows it live. The game ends once: a later tick or claim
// changes nothing.
func TestBrowserFlagFall(t *testing.T) {
	browser := newBrowser(t)
	h := newHarnessWith(t, gameSpec{control: "3+2"}, nil)
	r := h.reps[0]
	alice := h.tab(browser, r, h.initData(h.alice), lightTheme)
	waitPly(t, alice, 0)
	clocks := func() string {
		s, err := chromedp.Run(alice, chromedp.Evaluate[string](`[...document.querySelectorAll(".player")].map(p => p.dataset.color + " " + p.querySelector(".clock").textContent).join(", ")`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if got := clocks(); got != "b 3:00, w 3:00" && got != "b 3:00, w 2:59" {
		t.Errorf("clocks at the start: %q; want 3:00 each", got)
	}
	h.clock.Advance(5 * time.Second)
	tap(t, alice, "c3")
	tap(t, alice, "d4")
	waitPly(t, alice, 1)
	if g := h.stored(); len(g.Spent()) != 1 || g.Spent()[0] != 5*time.Second || g.WhiteLeft() != 3*time.Minute-3*time.Second {
		t.Errorf("stored after White's move: spent %v, White left %v; want [5s], 2m57s", g.Spent(), g.WhiteLeft())
	}
	if got := clocks(); got != "b 3:00, w 2:57" && got != "b 2:59, w 2:57" {
		t.Errorf("clocks after White's move: %q; want Black 3:00, White 2:57", got)
	}
	h.waitCard("2:57")

	// Past Black's flag: his clock started when the move reached him, at
	// the latest the grace after it (his board is not open).
	h.clock.Advance(3*time.Minute + play.DefaultShowGrace + time.Second)
	r.bot.ClockTick(h.ctx)
	if _, err := chromedp.Run(alice, chromedp.Poll[bool](`document.body.dataset.active === "false"`, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("the board never showed the game over: %v", err)
	}
	status, _ := chromedp.Run(alice, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	// Black never moved: out of time, the game is aborted (play/abort.go).
	if !strings.Contains(status, "aborted") {
		t.Errorf("status %q; want aborted", status)
	}
	if got := clocks(); got != "b 0:00, w 2:57" {
		t.Errorf("clocks at the end: %q; want Black 0:00", got)
	}
	screenshot(t, alice, "flag-light.png")
	g := h.stored()
	if g.Active() || !g.Aborted() {
		t.Errorf("stored: active %v, %s by %s; want aborted on time", g.Active(), g.Result(), g.Reason())
	}
	// Once only: neither another tick nor a board's claim ends it again.
	r.bot.ClockTick(h.ctx)
	if _, err := r.svc.ClaimTimeout(play.Detached(h.ctx), h.gameID); err != nil { // as the board claims
		t.Error(err)
	}
	r.bot.Wait()
	h.tg.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "sendMessage" && strings.Contains(c.Text(), "aborted")
	})
	n := 0
	for _, c := range h.tg.CallsTo("sendMessage") {
		if c.ChatID() == h.group.ID && strings.Contains(c.Text(), "aborted") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d game-over messages in the group; want 1", n)
	}
}

// contrastJS measures, on the page, the WCAG contrast ratio of each
// coordinate against the square it stands on and of a black piece against
// a dark square, from the colours the browser computed (color-mix()
// included), and the smallest coordinate's height on screen.
const contrastJS = `(() => {
  const rgb = (el, prop) => {
    const v = getComputedStyle(el)[prop];
    let m = /color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)/.exec(v);
    if (m) return m.slice(1, 4).map(Number);
    m = /rgba?\((\d+), (\d+), (\d+)/.exec(v);
    if (m) return m.slice(1, 4).map((x) => Number(x) / 255);
    throw new Error("colour " + v);
  };
  const lum = (c) => { const [r, g, b] = c.map((x) => x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4)); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const light = rgb(document.querySelector("#board .sq-light"), "fill");
  const dark = rgb(document.querySelector("#board .sq-dark"), "fill");
  let coord = 99, height = 99;
  for (const t of document.querySelectorAll("#board .coord")) {
    coord = Math.min(coord, ratio(rgb(t, "fill"), t.classList.contains("on-dark") ? dark : light));
    height = Math.min(height, t.getBoundingClientRect().height);
  }
  const black = ratio(rgb(document.querySelector("#board .pb"), "fill"), dark);
  return [coord, black, height];
})()`

// The dark theme as the light: coordinates and black pieces stand at
// least 3:1 off their squares, coordinates are big enough to read on a
// phone, only the player to move is told to tap a tower, and a game
// opened by a direct link's tgWebAppStartParam in the query (no
// start_param in initData) is found. Screenshots of both schemes.
func TestBrowserThemesAndHints(t *testing.T) {
	browser := newBrowser(t)
	h := newHarness(t, nil)
	r := h.reps[0]
	noStart := func(u tgbotapi.User) string {
		return SignUser(h.tg.Token(), User{ID: u.ID, FirstName: u.FirstName, Username: u.UserName, LanguageCode: u.LanguageCode}, "", time.Now())
	}
	alice := h.tabAt(browser, r, noStart(h.alice), lightTheme, "?tgWebAppStartParam="+h.gameID)
	bob := h.tab(browser, r, h.initData(h.bob), darkTheme)
	waitPly(t, alice, 0)
	waitPly(t, bob, 0)
	for _, tc := range []struct {
		name string
		tab  context.Context
		hint string
	}{
		{"light, to move", alice, "Tap a tower"},
		{"dark, waiting", bob, "Ход соперника"}, // Bob reads Russian
	} {
		got, err := chromedp.Run(tc.tab, chromedp.Evaluate[[]float64](contrastJS))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		coord, black, height := got[0], got[1], got[2]
		if coord < 3 || black < 3 {
			t.Errorf("%s: coordinates %.2f:1 and black pieces %.2f:1 against their squares, want 3:1 or more", tc.name, coord, black)
		}
		if height < 10 {
			t.Errorf("%s: coordinates %.1f px high on a 390-px phone, want 10 or more", tc.name, height)
		}
		hint, err := chromedp.Run(tc.tab, chromedp.Evaluate[string](`document.getElementById("hint").textContent`))
		if err != nil || !strings.Contains(hint, tc.hint) {
			t.Errorf("%s: hint %q (%v), want %q", tc.name, hint, err, tc.hint)
		}
		t.Logf("%s: coordinates %.2f:1, black on dark %.2f:1, coordinates %.1f px", tc.name, coord, black, height)
	}
	screenshot(t, alice, "themes-light.png")
	screenshot(t, bob, "themes-dark.png")
}
