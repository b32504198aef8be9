package outbox_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
)

// refusals counts OnRefused by reason.
type refusals struct {
	mu sync.Mutex
	m  map[string]int
}

func (r *refusals) add(reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]int{}
	}
	r.m[reason]++
}

func (r *refusals) get(reason string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[reason]
}

// A chat's lane is full. What handled updates owe (Commit) is kept in the
// journal and then queued past the bound, never forgotten unsent; new work
// is refused at the door (Admit, and Enqueue before keeping anything), and
// each refusal is counted. Once Run sends, every owed reply is sent.
func TestAFullLaneRefusesAtTheDoorAndDropsNothingOwed(t *testing.T) {
	srv, api := newAPI(t)
	st, _ := newJournalStore(t)
	opts, _ := fast()
	opts.MaxQueue = 5
	var refused refusals
	opts.OnRefused = refused.add
	opts.Journal = outbox.StoreJournal(st, "p1", time.Minute, time.Hour)
	ob := outbox.New(api, opts)
	ctx := context.Background()
	const chat = -1001
	msg := func(text string) outbox.Reply { return outbox.Reply{Req: tgbotapi.NewMessage(chat, text)} }

	// Before Run, so that everything waits: 4 updates owing 3 replies each.
	var owed []string
	for u := range 4 {
		var rs []outbox.Reply
		for i := range 3 {
			text := "update " + strconv.Itoa(u) + " reply " + strconv.Itoa(i)
			owed = append(owed, text)
			rs = append(rs, msg(text))
		}
		if first, err := ob.Commit(ctx, int64(100+u), rs); err != nil || !first {
			t.Fatalf("Commit %d: %v, %v", u, first, err)
		}
	}
	if err := ob.Admit(chat); !errors.Is(err, outbox.ErrChatBusy) || !errors.Is(err, outbox.ErrQueueFull) {
		t.Errorf("Admit with %d replies waiting (bound 5): %v, want ErrChatBusy", len(owed), err)
	}
	if err := ob.Admit(chat - 1); err != nil {
		t.Errorf("Admit for another chat: %v", err)
	}
	if err := ob.Enqueue(msg("extra")); !errors.Is(err, outbox.ErrChatBusy) {
		t.Errorf("Enqueue to the full lane: %v, want ErrChatBusy", err)
	}
	// A newer board of a card is never refused: it waits, one a Key.
	edit := tgbotapi.NewEditMessageText(chat, 7, "board")
	for range 3 {
		if err := ob.Enqueue(outbox.Reply{Req: edit, Key: "card:7"}); err != nil {
			t.Errorf("a keyed edit to the full lane: %v", err)
		}
	}
	if got := ob.Depths(); !slices.Equal(got, []int{len(owed) + 1}) {
		t.Errorf("Depths %v, want [%d]", got, len(owed)+1)
	}
	if n := refused.get(outbox.RefusedLane); n != 2 {
		t.Errorf("%d refusals counted, want 2 (Admit, Enqueue)", n)
	}
	// Nothing refused was kept: the journal holds what is owed.
	kept, err := st.ClaimOutbox(ctx, "inspector", time.Nanosecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 0 {
		t.Errorf("another owner claimed %d replies while p1's lease runs", len(kept))
	}

	run(t, ob)
	flush(t, ob)
	var got []string
	for _, c := range srv.CallsTo("sendMessage") {
		got = append(got, c.Text())
	}
	if !slices.Equal(got, owed) {
		t.Errorf("sent %q, want every owed reply in order: %q", got, owed)
	}
	if n := len(srv.CallsTo("editMessageText")); n != 1 {
		t.Errorf("%d edits of the card sent, want the newest one", n)
	}
}

// Replies kept by a process that died are taken over past the bound too.
func TestReclaimQueuesPastTheBound(t *testing.T) {
	srv, api := newAPI(t)
	st, clock := newJournalStore(t)
	opts, _ := fast()
	opts.MaxQueue = 2
	opts.Journal = outbox.StoreJournal(st, "dead", time.Minute, time.Hour)
	dead := outbox.New(api, opts)
	for i := range 5 {
		if err := dead.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(-1002, strconv.Itoa(i))}); err != nil && i < 2 {
			t.Fatalf("Enqueue %d: %v", i, err)
		}
	}
	clock.Advance(2 * time.Minute)
	opts.Journal = outbox.StoreJournal(st, "next", time.Minute, time.Hour)
	next := outbox.New(api, opts)
	if n, err := next.Reclaim(context.Background()); err != nil || n != 2 {
		t.Fatalf("Reclaim: %d, %v; want the 2 kept", n, err)
	}
	run(t, next)
	flush(t, next)
	if got := texts(srv.CallsTo("sendMessage")); !slices.Equal(got, []string{"0", "1"}) {
		t.Errorf("sent %q, want the 2 kept", got)
	}
}

// An edit of a card goes ahead of the messages waiting before it in its
// chat (another game's flood), and of an edit whose Key was sent more
// recently; a keyed message keeps its place.
func TestAKeyedEditGoesAheadOfAFlood(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	ob := outbox.New(api, opts)
	const chat = -1003
	enqueue := func(r outbox.Reply) {
		t.Helper()
		if err := ob.Enqueue(r); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		enqueue(outbox.Reply{Req: tgbotapi.NewMessage(chat, "flood "+strconv.Itoa(i))})
	}
	enqueue(outbox.Reply{Req: tgbotapi.NewMessage(chat, "keyed message"), Key: "m"})
	enqueue(outbox.Reply{Req: tgbotapi.NewEditMessageText(chat, 1, "flood card"), Key: "card:1"})
	enqueue(outbox.Reply{Req: tgbotapi.NewEditMessageText(chat, 2, "other card"), Key: "card:2"})
	run(t, ob)
	flush(t, ob)
	var got []string
	for _, c := range srv.Calls() {
		if c.ChatID() == chat {
			got = append(got, c.Text())
		}
	}
	want := []string{"flood card", "other card", "flood 0", "flood 1", "flood 2", "keyed message"}
	if !slices.Equal(got, want) {
		t.Errorf("sent %q, want %q", got, want)
	}
}
