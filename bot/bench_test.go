package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// The budget in DESIGN.md: a move update handled (store read, rules, store
// write, render, replies queued) in under 10 ms p50 and 50 ms p99, without
// Telegram's network and the AI's thinking time. BenchmarkMoveUpdate times
// exactly that: b.Handle for the tap that plays a move, on a real service,
// store and renderer, with replies queued on a recorder instead of sent.
// What the tap sets off in the background after the replies are queued
// (recording the turn notice) and the earlier taps of the picker (choosing
// the tower) run with the timer stopped.

// BenchmarkMoveUpdate plays random games between two people in a group by
// tapping the picker, one timed move tap per iteration. Run it with
//
//	go test -run '^$' -bench MoveUpdate ./bot/
func BenchmarkMoveUpdate(b *testing.B) {
	b.Run("store=bolt", func(b *testing.B) { benchMoves(b, boltStore(b)) })
	b.Run("store=redis", func(b *testing.B) { benchMoves(b, redisStore(b)) })
}

func benchMoves(b *testing.B, store play.Store) {
	h := newHarness(b, store)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	var g *benchGame
	durations := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		if g == nil {
			g = h.newGame(b, ctx)
		}
		tap := h.prepareMove(b, ctx, g, rng)
		b.StartTimer()
		start := time.Now()
		h.bot.Handle(ctx, tap)
		d := time.Since(start)
		b.StopTimer()
		durations = append(durations, d)
		h.settle()
		if over := h.checkMoved(b, ctx, g, tap); over {
			g = nil
		}
	}
	b.ReportMetric(ms(percentile(durations, 0.50)), "p50_ms")
	b.ReportMetric(ms(percentile(durations, 0.99)), "p99_ms")
}

// Fifty taps of the player to move on one board, handled at once (as two
// replicas, or a user's frantic tapping, would): exactly one move lands,
// exactly one tap is answered without a complaint, and nothing is lost.
func TestFiftyTapsOneMove(t *testing.T) {
	stores := map[string]func(testing.TB) play.Store{"bolt": boltStore, "redis": redisStore}
	for _, name := range []string{"bolt", "redis"} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, stores[name](t))
			ctx := context.Background()
			g := h.newGame(t, ctx)

			// The opening board has seven moves: the card offers each
			// whole, one tap each.
			dests := h.picks(t, g)

			const taps = 50
			updates := make([]tgbotapi.Update, taps)
			for i := range updates {
				updates[i] = h.tap(g, h.alice, dests[i%len(dests)])
			}
			var wg sync.WaitGroup
			start := make(chan struct{})
			for _, u := range updates {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					h.bot.Handle(ctx, u)
				}()
			}
			close(start)
			wg.Wait()
			h.settle()

			got, err := h.svc.Game(ctx, g.id)
			if err != nil {
				t.Fatal(err)
			}
			if got.Ply() != 1 || len(got.Moves()) != 1 {
				t.Errorf("after %d simultaneous taps the game has ply %d and moves %v; want exactly one move", taps, got.Ply(), got.Moves())
			}
			quiet, refused, missing := 0, 0, 0
			for _, u := range updates {
				text, ok := h.rec.answer(u.CallbackQuery.ID)
				switch {
				case !ok:
					missing++
				case text == "":
					quiet++
				default:
					refused++
				}
			}
			if quiet != 1 || refused != taps-1 || missing != 0 {
				t.Errorf("answers to %d taps: %d without a toast (the move), %d refused, %d unanswered; want 1, %d, 0",
					taps, quiet, refused, missing, taps-1)
			}
			if edits := h.rec.edits(g.chat.ID, g.card); edits != 1 {
				t.Errorf("card edited %d times; want 1 (the move)", edits)
			}
		})
	}
}

func boltStore(tb testing.TB) play.Store {
	st, err := bolt.Open(filepath.Join(tb.TempDir(), "bashni.db"), time.Now)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = st.Close() })
	return st
}

func redisStore(tb testing.TB) play.Store {
	db := redistest.New(tb)
	return redis.New(db.Client(tb), time.Now, redis.WithPrefix(db.Prefix))
}

// harness is a bot on a real service, store and renderer whose replies go
// to a recorder.
type harness struct {
	svc   *play.Service
	marks bot.UpdateMarks
	bot   *bot.Bot
	rec   *recorder
	alice tgbotapi.User
	bob   tgbotapi.User

	updateID atomic.Int64
	queryID  atomic.Int64
	msgID    atomic.Int64 // message ids of the players' own messages
	chats    int64
}

// benchGame is a game in progress and where its card is.
type benchGame struct {
	id   string
	chat tgbotapi.Chat
	card int
}

// noAI fails: the games here are between people.
type noAI struct{}

func (noAI) Think(context.Context, *rules.Game, int) (rules.Move, error) {
	return rules.Move{}, errors.New("bench: no AI in games between people")
}

func newHarness(tb testing.TB, store play.Store) *harness {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	svc := play.New(store, noAI{}, play.DefaultConfig, time.Now)
	rec := newRecorder()
	h := &harness{
		svc:   svc,
		marks: store.(bot.UpdateMarks),
		rec:   rec,
		bot:   bot.New(ctx, svc, store.(bot.UpdateMarks), rec, render.New(), bot.Config{Username: "bashni_bench_bot"}),
		alice: tgbotapi.User{ID: 501, FirstName: "Alice", UserName: "alice", LanguageCode: "en"},
		bob:   tgbotapi.User{ID: 502, FirstName: "Bob", UserName: "bob", LanguageCode: "en"},
	}
	tb.Cleanup(func() { cancel(); h.bot.Wait() })
	return h
}

// handle delivers one update and waits until everything it set off is done.
func (h *harness) handle(ctx context.Context, u tgbotapi.Update) {
	h.bot.Handle(ctx, u)
	h.settle()
}

// settle plays Telegram for the queued replies (a message id for each
// message sent) and waits for the bot's background work, until nothing is
// left: the state a user sees before tapping again.
func (h *harness) settle() {
	for {
		h.bot.Wait()
		if h.rec.deliver() == 0 {
			h.bot.Wait()
			if h.rec.pending() == 0 {
				return
			}
		}
	}
}

// newGame starts a game in a new group: Alice challenges as White, Bob
// accepts; it returns once the card is posted and recorded.
func (h *harness) newGame(tb testing.TB, ctx context.Context) *benchGame {
	tb.Helper()
	h.chats++
	chat := tgbotapi.Chat{ID: -1001000000000 - h.chats, Type: "supergroup", Title: fmt.Sprintf("Club %d", h.chats)}
	text := "/challenge white"
	msg := &tgbotapi.Message{
		MessageID: int(h.msgID.Add(1)), From: &h.alice, Chat: &chat, Date: int(time.Now().Unix()), Text: text,
		Entities: []tgbotapi.MessageEntity{{Type: "bot_command", Offset: 0, Length: len("/challenge")}},
	}
	h.handle(ctx, tgbotapi.Update{UpdateID: int(h.updateID.Add(1)), Message: msg})
	challenge, accept := h.rec.find(chat.ID, func(c bot.Callback) bool { return c.Kind == "a" })
	if accept == "" {
		tb.Fatal("no challenge with an Accept button was posted")
	}
	h.handle(ctx, h.callback(chat, h.bob, challenge, accept))
	card, data := h.rec.find(chat.ID, func(c bot.Callback) bool { return c.Kind == "p" })
	if data == "" {
		tb.Fatal("no card with a move picker was posted after Bob accepted")
	}
	cb, _ := bot.ParseCallback(data)
	return &benchGame{id: cb.ID, chat: chat, card: card}
}

// prepareMove chooses a random legal move for the player to move, taps the
// picker up to the last tap, and returns that last tap: the update that
// plays the move.
func (h *harness) prepareMove(tb testing.TB, ctx context.Context, g *benchGame, rng *rand.Rand) tgbotapi.Update {
	tb.Helper()
	pg, err := h.svc.Game(ctx, g.id)
	if err != nil {
		tb.Fatal(err)
	}
	legal := pg.Rules().Legal()
	m := legal[rng.IntN(len(legal))]
	_, p := pg.ToMove()
	who := h.alice
	if p.UserID == h.bob.ID {
		who = h.bob
	}
	// The labels a player reads: "▶ c3-d4" when there is one move only;
	// the move whole ("c3-d4") when the card lists every move whole (how
	// many is the picker's to say: more in a group than in a private
	// chat) or its tower has no other; else the tower ("c3 ▸", "⚔ c3 ▸"),
	// its destination ("c3-d4", "c3:e5"), and the whole path when several
	// captures end on the same square.
	whole := func(label string) bool { return label == m.String() || label == "▶ "+m.String() }
	if data, ok := h.findButton(g, whole); ok {
		return h.tap(g, who, data)
	}
	from, to := m.From().String(), m.To().String()
	h.handle(ctx, h.tap(g, who, h.button(tb, g, func(label string) bool {
		return strings.TrimSuffix(strings.TrimPrefix(label, "⚔ "), " ▸") == from
	})))
	dest := h.tap(g, who, h.button(tb, g, func(label string) bool { return label == from+"-"+to || label == from+":"+to }))
	paths := 0
	for _, x := range legal {
		if x.From() == m.From() && x.To() == m.To() {
			paths++
		}
	}
	if paths == 1 {
		return dest
	}
	h.handle(ctx, dest)
	return h.tap(g, who, h.button(tb, g, func(label string) bool { return label == m.String() }))
}

// checkMoved fails unless the tap played a move; it reports whether the
// game is over.
func (h *harness) checkMoved(tb testing.TB, ctx context.Context, g *benchGame, tap tgbotapi.Update) bool {
	tb.Helper()
	cb, _ := bot.ParseCallback(tap.CallbackQuery.Data)
	pg, err := h.svc.Game(ctx, g.id)
	if err != nil {
		tb.Fatal(err)
	}
	if pg.Ply() != cb.Ply+1 {
		text, _ := h.rec.answer(tap.CallbackQuery.ID)
		tb.Fatalf("tap %q left the game at ply %d (toast %q); want ply %d", tap.CallbackQuery.Data, pg.Ply(), text, cb.Ply+1)
	}
	return !pg.Active()
}

// button returns the data of the card's picker button whose label matches.
func (h *harness) button(tb testing.TB, g *benchGame, match func(label string) bool) string {
	tb.Helper()
	data, ok := h.findButton(g, match)
	if !ok {
		tb.Fatalf("the card has no such button: %v", labels(h.rec.keyboard(g.chat.ID, g.card)))
	}
	return data
}

// findButton is button that reports a missing button rather than failing.
func (h *harness) findButton(g *benchGame, match func(label string) bool) (string, bool) {
	for _, row := range h.rec.keyboard(g.chat.ID, g.card) {
		for _, btn := range row {
			if btn.CallbackData != nil && match(btn.Text) {
				return *btn.CallbackData, true
			}
		}
	}
	return "", false
}

// picks lists the data of the card's picker buttons other than Back.
func (h *harness) picks(tb testing.TB, g *benchGame) []string {
	tb.Helper()
	var out []string
	for _, row := range h.rec.keyboard(g.chat.ID, g.card) {
		for _, btn := range row {
			if btn.CallbackData == nil {
				continue
			}
			if cb, err := bot.ParseCallback(*btn.CallbackData); err == nil && cb.Kind == "p" && cb.Arg != "" {
				out = append(out, *btn.CallbackData)
			}
		}
	}
	if len(out) == 0 {
		tb.Fatal("the card has no picker buttons")
	}
	return out
}

func (h *harness) tap(g *benchGame, from tgbotapi.User, data string) tgbotapi.Update {
	return h.callback(g.chat, from, g.card, data)
}

// callback is a tap on a button of message messageID, as Telegram sends it.
func (h *harness) callback(chat tgbotapi.Chat, from tgbotapi.User, messageID int, data string) tgbotapi.Update {
	return tgbotapi.Update{
		UpdateID: int(h.updateID.Add(1)),
		CallbackQuery: &tgbotapi.CallbackQuery{
			ID:           fmt.Sprintf("q%d", h.queryID.Add(1)),
			From:         &from,
			Message:      &tgbotapi.Message{MessageID: messageID, Chat: &chat},
			ChatInstance: fmt.Sprintf("ci%d", chat.ID),
			Data:         data,
		},
	}
}

func labels(kb [][]tgbotapi.InlineKeyboardButton) []string {
	var out []string
	for _, row := range kb {
		for _, b := range row {
			out = append(out, b.Text)
		}
	}
	return out
}

// recorder is the bot's Sender: it keeps the queued replies and, when told
// to, answers them as Telegram would, so the bot learns its message ids.
// It never touches the network.
type recorder struct {
	mu      sync.Mutex
	queue   []outbox.Reply
	queued  int
	nextMsg map[int64]int
	kbs     map[[2]int64][][]tgbotapi.InlineKeyboardButton // by chat and message id
	edited  map[[2]int64]int
	answers map[string]string // callback query id → toast
}

var _ bot.Sender = (*recorder)(nil)

func newRecorder() *recorder {
	return &recorder{
		nextMsg: make(map[int64]int),
		kbs:     make(map[[2]int64][][]tgbotapi.InlineKeyboardButton),
		edited:  make(map[[2]int64]int),
		answers: make(map[string]string),
	}
}

// Enqueue queues a reply, as the outbox does, and returns at once.
func (r *recorder) Enqueue(rep outbox.Reply) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queue = append(r.queue, rep)
	r.queued++
	return nil
}

func (r *recorder) pending() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.queue)
}

// deliver "sends" the queued replies and returns how many there were.
// Done callbacks run without the lock: they may enqueue more.
func (r *recorder) deliver() int {
	r.mu.Lock()
	batch := r.queue
	r.queue = nil
	r.mu.Unlock()
	for _, rep := range batch {
		var msg *tgbotapi.Message
		if rep.Call != nil {
			msg = r.applyCall(rep.Call)
		} else {
			msg = r.apply(rep.Req)
		}
		if rep.Done != nil {
			rep.Done(msg, nil)
		}
	}
	return len(batch)
}

// apply models what a request does to the chat and returns the message
// Telegram would answer with (nil for methods that return none).
func (r *recorder) apply(req tgbotapi.Chattable) *tgbotapi.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	send := func(chatID int64, markup any) *tgbotapi.Message {
		r.nextMsg[chatID]++
		id := r.nextMsg[chatID]
		r.kbs[[2]int64{chatID, int64(id)}] = inline(markup)
		return &tgbotapi.Message{MessageID: id, Chat: &tgbotapi.Chat{ID: chatID}}
	}
	edit := func(e tgbotapi.BaseEdit) *tgbotapi.Message {
		key := [2]int64{e.ChatID, int64(e.MessageID)}
		r.edited[key]++
		r.kbs[key] = inline(e.ReplyMarkup)
		return &tgbotapi.Message{MessageID: e.MessageID, Chat: &tgbotapi.Chat{ID: e.ChatID}}
	}
	switch q := req.(type) {
	case tgbotapi.MessageConfig:
		return send(q.ChatID, q.ReplyMarkup)
	case tgbotapi.PhotoConfig:
		return send(q.ChatID, q.ReplyMarkup)
	case tgbotapi.DocumentConfig:
		return send(q.ChatID, q.ReplyMarkup)
	case tgbotapi.AnimationConfig:
		return send(q.ChatID, q.ReplyMarkup)
	case tgbotapi.EditMessageMediaConfig:
		return edit(q.BaseEdit)
	case tgbotapi.EditMessageTextConfig:
		return edit(q.BaseEdit)
	case tgbotapi.EditMessageReplyMarkupConfig:
		return edit(q.BaseEdit)
	case tgbotapi.CallbackConfig:
		r.answers[q.CallbackQueryID] = q.Text
	}
	return nil
}

// applyCall is apply for a request by name (outMessage's sendMessage;
// reactions change no message).
func (r *recorder) applyCall(c *outbox.Call) *tgbotapi.Message {
	if c.Method != "sendMessage" {
		return nil
	}
	chatID, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
	var kb *tgbotapi.InlineKeyboardMarkup
	if raw := c.Params["reply_markup"]; raw != "" {
		kb = new(tgbotapi.InlineKeyboardMarkup)
		if err := json.Unmarshal([]byte(raw), kb); err != nil {
			panic("bot tests: a reply_markup that does not decode: " + err.Error())
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nextMsg[chatID]++
	id := r.nextMsg[chatID]
	r.kbs[[2]int64{chatID, int64(id)}] = inline(kb)
	return &tgbotapi.Message{MessageID: id, Chat: &tgbotapi.Chat{ID: chatID}}
}

// inline returns the buttons of an inline keyboard, whichever way the
// request holds it.
func inline(markup any) [][]tgbotapi.InlineKeyboardButton {
	switch m := markup.(type) {
	case tgbotapi.InlineKeyboardMarkup:
		return m.InlineKeyboard
	case *tgbotapi.InlineKeyboardMarkup:
		if m != nil {
			return m.InlineKeyboard
		}
	}
	return nil
}

// keyboard returns the buttons a message shows now.
func (r *recorder) keyboard(chatID int64, messageID int) [][]tgbotapi.InlineKeyboardButton {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.kbs[[2]int64{chatID, int64(messageID)}]
}

func (r *recorder) edits(chatID int64, messageID int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.edited[[2]int64{chatID, int64(messageID)}]
}

func (r *recorder) answer(queryID string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	text, ok := r.answers[queryID]
	return text, ok
}

// find returns the newest message of a chat with a button whose data
// matches, and that button's data.
func (r *recorder) find(chatID int64, match func(bot.Callback) bool) (int, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id := r.nextMsg[chatID]; id > 0; id-- {
		for _, row := range r.kbs[[2]int64{chatID, int64(id)}] {
			for _, btn := range row {
				if btn.CallbackData == nil {
					continue
				}
				if cb, err := bot.ParseCallback(*btn.CallbackData); err == nil && match(cb) {
					return id, *btn.CallbackData
				}
			}
		}
	}
	return 0, ""
}

// percentile returns the q-quantile of ds (nearest rank).
func percentile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s)) + 0.5)
	return s[min(max(i-1, 0), len(s)-1)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
