package miniapp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/manners"
	"github.com/bashni/bashni/play/review"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/texts"
)

// replica is one bot process: its service, bot, broker and app server,
// over a store that may be shared with other replicas.
type replica struct {
	svc     *play.Service
	reviews *review.Service
	bot     *bot.Bot
	broker  *Broker
	app     *Server
	web     *httptest.Server
}

// harness is a group with a game between Alice (White) and Bob (Black),
// its card posted by the bot through the fake Bot API.
type harness struct {
	t      testing.TB
	ctx    context.Context
	cancel context.CancelFunc
	clock  *testkit.Clock // the one clock of stores, services and app servers
	tg     *telegramtest.Server
	store  play.Store
	reps   []*replica
	group  tgbotapi.Chat
	alice  tgbotapi.User
	bob    tgbotapi.User
	gameID string
	cardID int
	spec   gameSpec
	// preload, if set, runs in each page a tab opens before its own
	// scripts (a stand-in for Telegram's script).
	preload string
}

var (
	testAlice = telegramtest.User(11, "Alice", "alice", "en")
	testBob   = telegramtest.User(12, "Bob", "bob", "ru")
)

// newHarness starts n replicas over store (a fresh bbolt file if nil) with
// their buses (nil: in-process only), and sets up the game.
func newHarness(t testing.TB, store play.Store, buses ...Bus) *harness {
	return newHarnessWith(t, gameSpec{}, store, buses...)
}

// newHarnessFrom is newHarness with the game starting from a position of
// its own.
func newHarnessFrom(t testing.TB, startPosition string, store play.Store, buses ...Bus) *harness {
	return newHarnessWith(t, gameSpec{start: startPosition}, store, buses...)
}

// gameSpec is the harness's game: from the start or a position of its own,
// correspondence or with a time control; or a finished game (moves played
// from start, then result by reason). The replicas think with thinker
// (none if nil) and wait analysisWait for an analysis (the default if 0).
type gameSpec struct {
	// puzzles, if set, are served on the board (Options.Puzzles).
	puzzles        []puzzle.Puzzle
	start, control string
	moves          []string
	result, reason string
	thinker        play.Thinker
	analysisWait   time.Duration
	streams        StreamLimits
	onStreams      func(open int)
	variant        rules.Variant // of a game from the start
	maxGames       int           // Options.MaxGames
	daysPerMove    int           // a correspondence game at that pace
}

// sharedClock is the clock a test gives the stores it opens itself before
// the harness (Redis): every replica must read one clock.
var sharedClock = testkit.NewClock(time.Now())

func newHarnessWith(t testing.TB, spec gameSpec, store play.Store, buses ...Bus) *harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	h0cancel := cancel
	clock := testkit.NewClock(time.Now())
	if store != nil {
		clock = sharedClock
	}
	if store == nil {
		st, err := bolt.Open(filepath.Join(t.TempDir(), "b.db"), clock.Now)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		store = st
	}
	if len(buses) == 0 {
		buses = []Bus{nil}
	}
	h := &harness{t: t, ctx: ctx, cancel: h0cancel, clock: clock, tg: telegramtest.New(t), store: store,
		group: telegramtest.GroupChat(-1001234567890, "Club"), alice: testAlice, bob: testBob, spec: spec}
	for _, bus := range buses {
		h.reps = append(h.reps, h.newReplica(bus))
	}
	svc := h.reps[0].svc
	g, err := h.newGame(spec)
	if err != nil {
		t.Fatal(err)
	}
	h.gameID = g.ID()
	for _, u := range []tgbotapi.User{h.alice, h.bob} {
		if _, err := svc.Touch(ctx, play.Profile{ID: u.ID, Name: u.FirstName, Username: u.UserName, Lang: u.LanguageCode}); err != nil {
			t.Fatal(err)
		}
	}
	if spec.result != "" {
		return h // a finished game: no card to play on
	}
	// The card, posted as /board posts it: the app's moves edit it. Its
	// message id is stored in the background; the broker says when.
	changed, unsubscribe := h.reps[0].broker.Subscribe(g.ID())
	defer unsubscribe()
	h.reps[0].bot.Handle(ctx, h.tg.TextMessage(h.group, h.alice, "/board"))
	photo := h.tg.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool { return c.Method == "sendPhoto" && c.OK() })
	if !strings.Contains(photo.Params["reply_markup"], "startapp="+g.ID()) {
		t.Errorf("the card has no Open board button: %s", photo.Params["reply_markup"])
	}
	timeout := time.After(10 * time.Second)
	for h.cardID == 0 {
		select {
		case <-changed:
		case <-timeout:
			t.Fatal("the card was not recorded")
		}
		stored, err := svc.Game(ctx, g.ID())
		if err != nil {
			t.Fatal(err)
		}
		h.cardID = stored.MessageID()
	}
	return h
}

// newGame starts Alice (White) against Bob (Black) in the group: as an
// accepted challenge, or, from a position of its own, as a record written
// straight to the store (challenges always start from the start).
func (h *harness) newGame(spec gameSpec) (*play.Game, error) {
	svc := h.reps[0].svc
	alice, bob := play.Player{UserID: h.alice.ID, Name: "Alice"}, play.Player{UserID: h.bob.ID, Name: "Bob"}
	start := spec.start
	if start == "" {
		c, err := svc.Challenge(h.ctx, play.ChallengeRequest{ChatID: h.group.ID, From: alice, Color: play.ColorWhite, TimeControl: spec.control, Variant: spec.variant, DaysPerMove: spec.daysPerMove})
		if err != nil {
			return nil, err
		}
		return svc.Accept(h.ctx, c.ID, bob, "bob")
	}
	now := h.clock.Now()
	rec := &storage.GameRecord{ID: "custom" + strconv.FormatInt(now.UnixNano()%1e6, 10), White: alice, Black: bob, Start: start, Position: start,
		Status: storage.GameActive, CreatedAt: now, UpdatedAt: now, ChatID: h.group.ID}
	if spec.result != "" {
		p, err := rules.ParsePosition(start)
		if err != nil {
			return nil, err
		}
		g, err := rules.ReplayGame(p, spec.moves)
		if err != nil {
			return nil, err
		}
		rec.Moves, rec.Position = spec.moves, g.Position().String()
		rec.Status, rec.Result, rec.Reason = storage.GameFinished, spec.result, spec.reason
	}
	if err := h.store.CreateGame(h.ctx, rec); err != nil {
		return nil, err
	}
	return svc.Game(h.ctx, rec.ID)
}

func (h *harness) newReplica(bus Bus) *replica {
	t := h.t
	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(h.tg.Token(), h.tg.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	out := outbox.New(api, outbox.Options{PerChat: 1000, PerGroup: 1000, Global: 1000})
	outDone := make(chan struct{})
	go func() { defer close(outDone); _ = out.Run(h.ctx) }()
	broker := NewBroker(bus, nil)
	ready := make(chan struct{})
	brokerDone := make(chan struct{})
	go func() { defer close(brokerDone); _ = broker.Run(h.ctx, func() { close(ready) }) }()
	<-ready
	// A bus that is a store too (storage/redis) is this replica's own
	// connection to the shared data.
	st := h.store
	if s, ok := bus.(play.Store); ok {
		st = s
	}
	games := WatchStore(st, broker)
	svc := play.New(games, h.spec.thinker, play.DefaultConfig, h.clock.Now)
	// Reviews are made at once (no queue) by the thinker, when it can,
	// and kept through the store the boards watch.
	var reviews *review.Service
	if rv, ok := h.spec.thinker.(review.Reviewer); ok {
		reviews = review.New(svc, reviewStore{games, st.(storage.ReviewQueue)}, rv)
	}
	b := bot.New(h.ctx, svc, st.(bot.UpdateMarks), out, render.New(), bot.Config{
		Username: api.Self.UserName,
		BoardURL: func(id string) string { return Link(api.Self.UserName, "board", id) },
		// Wired as cmd/bashni's Main.Open wires them (bot/wiring.go).
		DrawsAtSend: true, Door: out,
	})
	b.OutboxHooks().Install(out)
	svc.OnOwed(b.ShowDetached())
	opts := Options{Token: h.tg.Token(), Lang: texts.Lang, AnalysisWait: h.spec.analysisWait, Reviews: reviews,
		Streams: h.spec.streams, OnStreams: h.spec.onStreams, MaxGames: h.spec.maxGames,
		Course: training.NewCourse(st.(training.CourseStore))}
	if h.spec.puzzles != nil {
		opts.Puzzles = training.NewPuzzles(st.(training.PuzzleStore), h.spec.puzzles, h.clock.Now, nil)
		opts.Streak = training.NewStreak(st.(training.StreakStore), opts.Puzzles)
	}
	// Conditional moves as cmd/bashni wires them: answered in the move's
	// write, left on the board.
	opts.Manners = manners.New(svc)
	svc.AfterMove(opts.Manners.Answer)
	app := New(svc, b.Texts(), broker, opts)
	web := httptest.NewServer(app.Handler(h.ctx))
	t.Cleanup(func() {
		h.cancel() // ends event streams, the outbox and the broker
		web.CloseClientConnections()
		web.Close()
		b.Wait()
		<-outDone
		<-brokerDone
	})
	return &replica{svc: svc, reviews: reviews, bot: b, broker: broker, app: app, web: web}
}

// initData signs an initData for u, opening the harness's game, now.
func (h *harness) initData(u tgbotapi.User) string {
	// Signed by the harness's clock, the servers' one: the real time drifts
	// from a shared fake clock as a long run goes on.
	return SignUser(h.tg.Token(), User{ID: u.ID, FirstName: u.FirstName, Username: u.UserName, LanguageCode: u.LanguageCode}, h.gameID, h.clock.Now())
}

// call makes an API request to replica r as auth, and decodes the answer.
func (h *harness) call(r *replica, method, path, auth, body string, into any) int {
	h.t.Helper()
	req, err := http.NewRequestWithContext(h.ctx, method, r.web.URL+path, strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", "tma "+auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if into != nil {
		if err := json.Unmarshal(data, into); err != nil {
			h.t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, data, err)
		}
	}
	return resp.StatusCode
}

// stored is the game as the store has it.
func (h *harness) stored() *play.Game {
	h.t.Helper()
	g, err := h.reps[0].svc.Game(h.ctx, h.gameID)
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

// waitCard waits for the chat card to show text in its caption.
func (h *harness) waitCard(text string) {
	h.t.Helper()
	h.tg.WaitFor(h.t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "editMessageMedia" && c.OK() && c.MessageID() == h.cardID && strings.Contains(c.Text(), text)
	})
}

// reviewStore is the reviews' store: the games as the service reads and
// writes them, and the stored queue.
type reviewStore struct {
	play.Store
	reviewQueue
}

// reviewQueue names the embedded queue (storage.ReviewQueue's own name
// would clash with its method ReviewQueue).
type reviewQueue = storage.ReviewQueue
