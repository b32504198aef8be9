package outbox_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
)

// board is what a lazy card edit draws: the state as it is when the edit
// is sent, counting the drawings made.
type board struct {
	mu    sync.Mutex
	ply   int64
	drawn int
}

func (b *board) set(ply int64) {
	b.mu.Lock()
	b.ply = ply
	b.mu.Unlock()
}

func (b *board) resolve(chat int64, msgID int) outbox.Resolve {
	return func(_ context.Context, lazy json.RawMessage) (tgbotapi.Chattable, int64, error) {
		if string(lazy) != `{"card":"g1"}` {
			return nil, 0, nil
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		b.drawn++
		return tgbotapi.NewEditMessageText(chat, msgID, "ply "+string(rune('0'+b.ply))), b.ply, nil
	}
}

// A lazy reply is kept in the journal as its small description, not as the
// request, and drawn when it is sent: the board as it stands then, once
// for all the edits that waited for the chat's pace, in the next process
// too.
func TestLazyRepliesAreDrawnWhenSent(t *testing.T) {
	srv, api := newAPI(t)
	st, clock := newJournalStore(t)
	const chat, msgID = int64(-1001), 7
	srv.TextMessage(tgbotapiChat(chat), tgbotapi.User{ID: 1, FirstName: "A"}, "hi") // the chat exists
	b := &board{}
	lazy := func(v int64) outbox.Reply {
		return outbox.Reply{Lazy: json.RawMessage(`{"card":"g1"}`), ChatID: chat, Group: true, Key: "card:g1", Version: v}
	}

	// A process keeps three edits of the card and dies before sending.
	opts, _ := fast()
	opts.Journal = outbox.StoreJournal(st, "dead", time.Minute, time.Hour)
	dead := outbox.New(api, opts)
	for v := int64(1); v <= 3; v++ {
		b.set(v)
		if _, err := dead.Commit(t.Context(), 100+v, []outbox.Reply{lazy(v)}); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(2 * time.Minute) // the dead process's lease ends
	owed, err := st.ClaimOutbox(t.Context(), "peek", 0)
	if err != nil || len(owed) != 3 {
		t.Fatalf("kept: %d, %v; want the three edits", len(owed), err)
	}
	for _, o := range owed {
		if len(o.Data) > 200 || !strings.Contains(string(o.Data), `{"card":"g1"}`) {
			t.Errorf("kept %q: want the small description", o.Data)
		}
	}
	if err := st.ReleaseOutbox(t.Context(), "peek"); err != nil {
		t.Fatal(err)
	}

	// The next process takes them over: the board has moved on meanwhile.
	b.set(5)
	opts.Journal = outbox.StoreJournal(st, "next", time.Minute, time.Hour)
	next := outbox.New(api, opts)
	next.SetResolver(b.resolve(chat, msgID))
	if n, err := next.Reclaim(t.Context()); err != nil || n != 3 {
		t.Fatalf("Reclaim: %d, %v; want the three edits", n, err)
	}
	run(t, next)
	flush(t, next)
	edits := srv.CallsTo("editMessageText")
	if len(edits) == 0 {
		t.Fatal("no edit sent after the takeover")
	}
	for _, e := range edits {
		if e.Text() != "ply 5" {
			t.Errorf("an edit showed %q, want the board as it stood when sent (ply 5)", e.Text())
		}
	}
	if b.drawn > 1 || len(edits) > 1 {
		t.Errorf("%d drawings, %d edits for three edits of one card waiting together; want one", b.drawn, len(edits))
	}
	if left, err := st.ClaimOutbox(t.Context(), "after", time.Minute); err != nil || len(left) != 0 {
		t.Errorf("still kept after sending: %d, %v", len(left), err)
	}
}

func tgbotapiChat(id int64) tgbotapi.Chat {
	return tgbotapi.Chat{ID: id, Type: "supergroup", Title: "Club"}
}

// A lazy reply Telegram refuses is told to Refused, with its description
// and the refusal, before it is done with: by the process that takes it
// over from a dead one (whose Done died with it), and by its own process
// before its Done. A refused reply that is not lazy is not told.
func TestRefusedLazyReplyIsToldByWhicheverProcessSendsIt(t *testing.T) {
	srv, api := newAPI(t)
	st, clock := newJournalStore(t)
	const chat, msgID = int64(-1002), 9
	b := &board{}
	lazy := outbox.Reply{Lazy: json.RawMessage(`{"card":"g1"}`), ChatID: chat, Group: true, Key: "card:g1"}
	var mu sync.Mutex
	var told []string
	tell := func(what string) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, what)
	}
	refused := func(_ context.Context, raw json.RawMessage, err error) {
		tell("refused " + string(raw) + ": " + err.Error())
	}
	noMedia := telegramtest.BadRequest("there is no media in the message to edit")

	opts, _ := fast()
	opts.Journal = outbox.StoreJournal(st, "dead", time.Minute, time.Hour)
	if _, err := outbox.New(api, opts).Commit(t.Context(), 100, []outbox.Reply{lazy}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Minute) // the dead process's lease ends
	opts.Journal = outbox.StoreJournal(st, "heir", time.Minute, time.Hour)
	heir := outbox.New(api, opts)
	heir.SetResolver(b.resolve(chat, msgID))
	heir.SetRefused(refused)
	srv.FailNext("editMessageText", 1, noMedia)
	if n, err := heir.Reclaim(t.Context()); err != nil || n != 1 {
		t.Fatalf("Reclaim: %d, %v; want the edit", n, err)
	}
	run(t, heir)
	flush(t, heir)

	srv.FailNext("editMessageText", 2, noMedia)
	own := lazy
	own.Done = func(*tgbotapi.Message, error) { tell("done") }
	if err := heir.Enqueue(own); err != nil {
		t.Fatal(err)
	}
	flush(t, heir)
	if err := heir.Enqueue(outbox.Reply{Req: tgbotapi.NewEditMessageText(chat, msgID, "not lazy"), ChatID: chat}); err != nil {
		t.Fatal(err)
	}
	flush(t, heir)

	want := `refused {"card":"g1"}: Bad Request: there is no media in the message to edit`
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 3 || told[0] != want || told[1] != want || told[2] != "done" {
		t.Errorf("told %q; want the taken-over edit's refusal, then the own edit's before its Done, and nothing of the reply that is not lazy", told)
	}
	if left, err := st.ClaimOutbox(t.Context(), "after", time.Minute); err != nil || len(left) != 0 {
		t.Errorf("still kept after the refusals: %d, %v", len(left), err)
	}
}
