package updates

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

func update(id int, chat int64) tgbotapi.Update {
	return tgbotapi.Update{UpdateID: id, Message: &tgbotapi.Message{Chat: &tgbotapi.Chat{ID: chat}}}
}

// TestDispatcherBoundsAndOrders runs many updates of a few chats through a
// small pool and checks the pool's promises: never more than Workers
// handlers at once, never two of one chat at once, each chat in order.
func TestDispatcherBoundsAndOrders(t *testing.T) {
	const workers, chats, per = 3, 7, 40
	var mu sync.Mutex
	running, most := 0, 0
	busy := map[int64]bool{}
	last := map[int64]int{}
	handled := 0
	handle := func(_ context.Context, u tgbotapi.Update) {
		chat := u.Message.Chat.ID
		mu.Lock()
		running++
		most = max(most, running)
		if busy[chat] {
			t.Errorf("chat %d handled twice at once", chat)
		}
		busy[chat] = true
		if u.UpdateID < last[chat] {
			t.Errorf("chat %d: update %d after %d", chat, u.UpdateID, last[chat])
		}
		last[chat] = u.UpdateID
		mu.Unlock()

		time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond) // not a wait: a handler's work, of random length, so that handlers overlap

		mu.Lock()
		running--
		busy[chat] = false
		handled++
		mu.Unlock()
	}
	d := newDispatcher(t.Context(), workers, 16, handle, slog.New(slog.DiscardHandler))
	for id := 1; id <= chats*per; id++ {
		if err := d.dispatch(t.Context(), update(id, int64(rand.IntN(chats)))); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if n := d.drain(ctx); n != 0 {
		t.Errorf("%d dropped", n)
	}
	if handled != chats*per {
		t.Errorf("%d handled, want %d", handled, chats*per)
	}
	if most > workers {
		t.Errorf("%d handlers ran at once, want at most %d", most, workers)
	}
	if err := d.dispatch(t.Context(), update(999, 1)); !errors.Is(err, ErrClosed) {
		t.Errorf("dispatch after drain: %v, want ErrClosed", err)
	}
}

// TestDispatchBlocksWhenFull checks the backpressure Poll relies on.
func TestDispatchBlocksWhenFull(t *testing.T) {
	release := make(chan struct{})
	d := newDispatcher(t.Context(), 1, 2, func(context.Context, tgbotapi.Update) { <-release }, slog.New(slog.DiscardHandler))
	for id := 1; id <= 2; id++ {
		if err := d.dispatch(t.Context(), update(id, 1)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := d.dispatch(ctx, update(3, 2)); err != context.DeadlineExceeded {
		t.Errorf("third dispatch with 2 pending: %v, want to block until the deadline", err)
	}
	close(release)
	if n := d.drain(t.Context()); n != 0 {
		t.Errorf("%d dropped", n)
	}
}

// dispatch is dispatchThen with nothing to call once u is handled.
func (d *dispatcher) dispatch(ctx context.Context, u tgbotapi.Update) error {
	return d.dispatchThen(ctx, u, nil)
}
