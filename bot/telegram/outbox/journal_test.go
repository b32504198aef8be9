package outbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
)

// keptReplies are one of each request the bot sends that the journal
// keeps, the edits aimed at message msgID in chat.
func keptReplies(chat int64, msgID int) []outbox.Reply {
	kb := tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData("a1", "p|x|1|a1"), tgbotapi.NewInlineKeyboardButtonURL("open", "https://t.me/x/1")))
	msg := tgbotapi.NewMessage(chat, "<b>hello</b>")
	msg.ParseMode = tgbotapi.ModeHTML
	msg.ReplyMarkup = kb
	msg.ReplyToMessageID = msgID
	msg.AllowSendingWithoutReply = true
	photo := tgbotapi.NewPhoto(chat, tgbotapi.FileBytes{Name: "board.png", Bytes: telegramtest.PNG(64, 64)})
	photo.Caption = "the board"
	photo.ReplyMarkup = kb
	doc := tgbotapi.NewDocument(chat, tgbotapi.FileBytes{Name: "game.pdn", Bytes: []byte("1. c3-d4 *")})
	media := tgbotapi.NewInputMediaPhoto(tgbotapi.FileBytes{Name: "board.png", Bytes: telegramtest.PNG(32, 32)})
	media.Caption = "moved"
	edit := tgbotapi.EditMessageMediaConfig{BaseEdit: tgbotapi.BaseEdit{ChatID: chat, MessageID: msgID, ReplyMarkup: &kb}, Media: media}
	return []outbox.Reply{
		{Req: msg, ChatID: chat},
		{Req: photo, ChatID: chat, Silent: true},
		{Req: doc, ChatID: chat},
		{Req: edit, ChatID: chat, Key: "card"},
		{Req: tgbotapi.NewEditMessageText(chat, msgID, "text")},
		{Req: tgbotapi.NewEditMessageReplyMarkup(chat, msgID, kb)},
		{Req: tgbotapi.NewDeleteMessage(chat, msgID+1000)},
		{Call: &outbox.Call{Method: "setMessageReaction", Params: tgbotapi.Params{
			"chat_id": strconv.FormatInt(chat, 10), "message_id": strconv.Itoa(msgID), "reaction": `[{"type":"emoji","emoji":"👎"}]`}}},
	}
}

// callShape is what a request looked like at the Bot API, keyboards
// compared decoded (JSON's key order is no part of them).
type callShape struct {
	Method   string
	Params   map[string]string
	Keyboard *tgbotapi.InlineKeyboardMarkup
	Files    map[string]telegramtest.File
}

func shapes(calls []telegramtest.Call) []callShape {
	out := make([]callShape, 0, len(calls))
	for _, c := range calls {
		p := map[string]string{}
		for k, v := range c.Params {
			if k != "reply_markup" {
				p[k] = v
			}
		}
		out = append(out, callShape{c.Method, p, c.ReplyMarkup(), c.Files})
	}
	return out
}

// A process keeps its replies in the store and dies before sending them;
// another takes them over once its lease has ended and sends each exactly
// as the first would have.
func TestJournalHandsRepliesToTheNextProcess(t *testing.T) {
	srv, api := newAPI(t)
	st, clock := newJournalStore(t)
	const lease = 10 * time.Second
	user := telegramtest.User(42, "Ann", "", "en")
	chat := telegramtest.PrivateChat(user)
	srv.PushUpdate(srv.TextMessage(chat, user, "/start")) // a chat the fake knows

	// Sent directly first: what the Bot API should see.
	opts, _ := fast()
	direct := outbox.New(api, opts)
	run(t, direct)
	seed := make(chan *tgbotapi.Message, 1)
	if err := direct.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(chat.ID, "seed"), Done: func(m *tgbotapi.Message, _ error) { seed <- m }}); err != nil {
		t.Fatal(err)
	}
	msgID := (<-seed).MessageID
	before := len(srv.Calls())
	for _, r := range keptReplies(chat.ID, msgID) {
		if err := direct.Enqueue(r); err != nil {
			t.Fatal(err)
		}
	}
	flush(t, direct)
	want := shapes(srv.Calls()[before:])

	// Kept by a process that never sends them.
	dead := opts
	dead.Journal = outbox.StoreJournal(st, "dead", lease, time.Hour)
	ob := outbox.New(api, dead)
	for _, r := range keptReplies(chat.ID, msgID) {
		if err := ob.Enqueue(r); err != nil {
			t.Fatal(err)
		}
	}

	next := opts
	next.Journal = outbox.StoreJournal(st, "next", lease, time.Hour)
	heir := outbox.New(api, next)
	if n, err := heir.Reclaim(t.Context()); err != nil || n != 0 {
		t.Fatalf("Reclaim while the first lease lives: got %d, %v; want 0, none", n, err)
	}
	clock.Advance(lease + time.Second)
	before = len(srv.Calls())
	if n, err := heir.Reclaim(t.Context()); err != nil || n != len(want) {
		t.Fatalf("Reclaim after the lease: got %d, %v; want %d", n, err, len(want))
	}
	run(t, heir)
	flush(t, heir)
	got := shapes(srv.Calls()[before:])
	// Each request as the first would have sent it; the order may differ,
	// since a card's edit goes ahead of messages waiting with it (order.go).
	byKind := func(cs []callShape) {
		sort.SliceStable(cs, func(i, j int) bool {
			return fmt.Sprint(cs[i].Method, cs[i].Params) < fmt.Sprint(cs[j].Method, cs[j].Params)
		})
	}
	byKind(got)
	byKind(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("requests sent by the heir differ:\n got %+v\nwant %+v", got, want)
	}
	// Sent and acked: nothing is left for anyone.
	clock.Advance(3 * lease)
	if left, err := st.ClaimOutbox(context.Background(), "third", lease); err != nil || len(left) != 0 {
		t.Errorf("after the heir sent everything: %d replies still kept (%v)", len(left), err)
	}
}

// A keyed reply older (by Version) than one already queued for its chat
// is never sent: the AI's answer may be queued before the board with the
// move it answers.
func TestOlderVersionIsNeverQueuedBehindANewer(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	ob := outbox.New(api, opts)
	res := newResults()
	const chat = 4242
	newer := outbox.Reply{Req: tgbotapi.NewMessage(chat, "after the AI's move"), Key: "card", Version: 8, Done: res.done("newer")}
	older := outbox.Reply{Req: tgbotapi.NewMessage(chat, "thinking"), Key: "card", Version: 7, Done: res.done("older")}
	for _, r := range []outbox.Reply{newer, older} {
		if err := ob.Enqueue(r); err != nil {
			t.Fatal(err)
		}
	}
	run(t, ob)
	flush(t, ob)
	if got := res.get(t, "older"); !errors.Is(got.err, outbox.ErrSuperseded) {
		t.Errorf("older reply: %v, want ErrSuperseded", got.err)
	}
	if got := texts(srv.CallsTo("sendMessage")); len(got) != 1 || got[0] != "after the AI's move" {
		t.Errorf("sent %q, want only the newer", got)
	}
}

// A reply with a Record is recorded by whichever process sends it: by
// its own (again false), and, when that process died before sending it,
// by the one that took it over (again true: the first may have sent it).
// Done stays with its process.
func TestRecordGoesWithTheReplyToTheNextProcess(t *testing.T) {
	srv, api := newAPI(t)
	st, clock := newJournalStore(t)
	const lease = 10 * time.Second
	user := telegramtest.User(43, "Ann", "", "en")
	chat := telegramtest.PrivateChat(user)
	srv.PushUpdate(srv.TextMessage(chat, user, "/start")) // a chat the fake knows

	type record struct {
		data  string
		text  string
		again bool
	}
	records := make(chan record, 4)
	recorder := func(_ context.Context, data json.RawMessage, msg *tgbotapi.Message, again bool) error {
		m, _ := srv.Message(chat.ID, msg.MessageID)
		records <- record{string(data), m.Text, again}
		return nil
	}

	opts, _ := fast()
	dead := opts
	dead.Journal = outbox.StoreJournal(st, "dead", lease, time.Hour)
	ob := outbox.New(api, dead)
	ob.SetRecorder(recorder)
	done := make(chan struct{})
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(chat.ID, "the poll"), Record: json.RawMessage(`{"poll":1}`),
		Done: func(*tgbotapi.Message, error) { close(done) }}); err != nil {
		t.Fatal(err)
	}

	next := opts
	next.Journal = outbox.StoreJournal(st, "next", lease, time.Hour)
	heir := outbox.New(api, next)
	heir.SetRecorder(recorder)
	clock.Advance(lease + time.Second)
	if n, err := heir.Reclaim(t.Context()); err != nil || n != 1 {
		t.Fatalf("Reclaim after the lease: got %d, %v; want 1", n, err)
	}
	run(t, heir)
	flush(t, heir)
	if got, want := <-records, (record{`{"poll":1}`, "the poll", true}); got != want {
		t.Errorf("the heir recorded %+v, want %+v", got, want)
	}
	select {
	case <-done:
		t.Errorf("the dead process's Done was called by the heir")
	default:
	}

	// Its own reply: not again.
	if err := heir.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(chat.ID, "the next poll"), Record: json.RawMessage(`{"poll":2}`)}); err != nil {
		t.Fatal(err)
	}
	flush(t, heir)
	if got, want := <-records, (record{`{"poll":2}`, "the next poll", false}); got != want {
		t.Errorf("the heir's own reply recorded as %+v, want %+v", got, want)
	}
	clock.Advance(3 * lease)
	if left, err := st.ClaimOutbox(t.Context(), "third", lease); err != nil || len(left) != 0 {
		t.Errorf("after recording: %d replies still kept (%v)", len(left), err)
	}
}

// A reply the journal keeps is owed: Telegram's 429s and failures that
// may pass delay it, however many there are, and never delete it unsent
// (issue 38: a card's edit given up after three 429s left the card on an
// old board, and the store forgot it). A reply not kept is still given up.
func TestAKeptReplyOutlastsFloodControlAndFailures(t *testing.T) {
	srv, api := newAPI(t)
	st, _ := newJournalStore(t)
	opts, _ := fast()
	opts.MaxRetries = 1
	opts.Journal = outbox.StoreJournal(st, "live", time.Minute, time.Hour)
	ob := outbox.New(api, opts)
	run(t, ob)
	res := newResults()
	srv.FailNext("sendMessage", 2, telegramtest.TooManyRequests(1))
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "owed"), ChatID: 42, Done: res.done("owed")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	srv.FailNext("sendMessage", 4, telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "owed too"), ChatID: 42, Done: res.done("owed too")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	for _, name := range []string{"owed", "owed too"} {
		if r := res.get(t, name); r.err != nil || r.msg == nil {
			t.Errorf("%s: Done(%v, %v), want it sent", name, r.msg, r.err)
		}
	}
	if n := len(srv.CallsTo("sendMessage")); n != 2+1+4+1 {
		t.Errorf("%d sendMessage calls, want 8 (each failure tried again)", n)
	}
	if left, err := st.ClaimOutbox(context.Background(), "live", time.Minute); err != nil || len(left) != 0 {
		t.Errorf("after both were sent: %d replies still kept (%v)", len(left), err)
	}
}
