package bot_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/storage"
)

var errKilled = errors.New("killed")

// diesOnAnswer is the Bot API of a process killed the moment Telegram has
// answered the first request kills picks: Telegram did what it asked, the
// process never hears the answer, and it asks nothing more, nor keeps,
// forgets or renews anything in its journal (j: what it was writing is
// written first). Its calls return only when the test ends (end).
type diesOnAnswer struct {
	*tgbotapi.BotAPI
	kills func(tgbotapi.Chattable) bool
	j     *diesWith
	dead  chan struct{}
	once  sync.Once
	end   <-chan struct{}
}

func (d *diesOnAnswer) Request(c tgbotapi.Chattable) (*tgbotapi.APIResponse, error) {
	if d.killed() {
		return nil, errKilled
	}
	resp, err := d.BotAPI.Request(c)
	if d.kills(c) {
		d.once.Do(func() {
			d.j.kill()
			close(d.dead)
		})
		<-d.end
		return nil, errKilled
	}
	return resp, err
}

func (d *diesOnAnswer) MakeRequest(endpoint string, params tgbotapi.Params) (*tgbotapi.APIResponse, error) {
	if d.killed() {
		return nil, errKilled
	}
	return d.BotAPI.MakeRequest(endpoint, params)
}

// killed waits for the test's end if the process is dead.
func (d *diesOnAnswer) killed() bool {
	select {
	case <-d.dead:
		<-d.end
		return true
	default:
		return false
	}
}

// diesWith is the journal of a process that can be killed: after kill,
// which waits for the writes under way, it keeps, forgets and renews
// nothing, so that what it kept waits for another process once its lease
// has run out.
type diesWith struct {
	outbox.Journal
	mu   sync.RWMutex
	dead bool
}

func (j *diesWith) kill() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.dead = true
}

// alive holds off kill until done is called, or reports false.
func (j *diesWith) alive() (done func(), ok bool) {
	j.mu.RLock()
	if j.dead {
		j.mu.RUnlock()
		return nil, false
	}
	return j.mu.RUnlock, true
}

func (j *diesWith) Commit(ctx context.Context, updateID int64, owed [][]byte) (bool, []string, error) {
	done, ok := j.alive()
	if !ok {
		return false, nil, errKilled
	}
	defer done()
	return j.Journal.Commit(ctx, updateID, owed)
}

func (j *diesWith) Append(ctx context.Context, owed [][]byte) ([]string, error) {
	done, ok := j.alive()
	if !ok {
		return nil, errKilled
	}
	defer done()
	return j.Journal.Append(ctx, owed)
}

func (j *diesWith) Ack(ctx context.Context, ids []string) error {
	done, ok := j.alive()
	if !ok {
		return errKilled
	}
	defer done()
	return j.Journal.Ack(ctx, ids)
}

func (j *diesWith) Claim(ctx context.Context) ([]storage.Owed, error) {
	done, ok := j.alive()
	if !ok {
		return nil, errKilled
	}
	defer done()
	return j.Journal.Claim(ctx)
}

func (j *diesWith) Release(ctx context.Context) error {
	done, ok := j.alive()
	if !ok {
		return errKilled
	}
	defer done()
	return j.Journal.Release(ctx)
}

// diesAtTheFirstEdit is a bot process killed the moment Telegram has
// answered the first edit of inline message inlineID; dead is closed then.
func (r *eventsRig) diesAtTheFirstEdit(t *testing.T, ctx context.Context, inlineID string) (b *bot.Bot, dead <-chan struct{}) {
	t.Helper()
	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(r.srv.Token(), r.srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	j := &diesWith{Journal: outbox.StoreJournal(r.store, "dead", time.Minute, 24*time.Hour)}
	d := &diesOnAnswer{BotAPI: api, j: j, dead: make(chan struct{}), end: ctx.Done(), kills: func(c tgbotapi.Chattable) bool {
		switch e := c.(type) {
		case tgbotapi.EditMessageTextConfig:
			return e.InlineMessageID == inlineID
		case tgbotapi.EditMessageMediaConfig:
			return e.InlineMessageID == inlineID
		}
		return false
	}}
	out := outbox.New(d, outbox.Options{PerChat: 1000, PerGroup: 1000, Global: 1000, Journal: j})
	b = wiredBot(ctx, r.svc, r.store, out, bot.Config{Username: "bashni_test_bot"})
	go out.Run(ctx)
	return b, d.dead
}

// showsTheGameAsText reports whether the inline message shows the game,
// as text.
func (r *eventsRig) showsTheGameAsText(inlineID string) bool {
	m, ok := r.srv.InlineMessage(inlineID)
	return ok && m.Kind == "text" && strings.Contains(m.Text, "Alice vs ⚫ Bob")
}

// killedAtTheFirstEdit is Alice's challenge offered as text (she has not
// started the bot and no media chat is set), accepted by Bob with the tap
// whose data is accept (update 20) on a process killed the moment
// Telegram has answered the first edit of the inline message; the next
// process starts once the dead one's lease has run out.
func killedAtTheFirstEdit(t *testing.T, ctx context.Context, accept func(data string) string) (r *eventsRig, inlineID string) {
	t.Helper()
	bob := telegramtest.User(12, "Bob", "bob", "en")
	r, inlineID, data := inlineOffer(t, ctx, bob, false)
	if m, _ := r.srv.InlineMessage(inlineID); m.Kind != "text" {
		t.Fatalf("the offer is a %s, want text (nowhere to upload its board)", m.Kind)
	}
	dead, killed := r.diesAtTheFirstEdit(t, ctx, inlineID)
	tap := r.srv.CallbackOnInlineMessage(bob, inlineID, accept(data))
	tap.UpdateID = 20
	dead.Handle(ctx, tap)
	select {
	case <-killed:
	case <-time.After(10 * time.Second):
		t.Fatalf("the accepted game's card was never edited; %v", r.srv.Calls())
	}
	games, err := r.svc.ActiveGames(ctx, bob.ID, 0)
	if err != nil || len(games) != 1 {
		t.Fatalf("Bob's games after the accept: %v, %v; want the game stored", games, err)
	}
	r.gameID = games[0].ID()

	r.clock.Advance(2 * time.Minute) // the dead process's journal lease runs out
	b, out := r.live(t, ctx, "restarted")
	if !r.srv.WaitUntil(10*time.Second, func() bool { return r.showsTheGameAsText(inlineID) }) {
		m, _ := r.srv.InlineMessage(inlineID)
		t.Fatalf("the inline message after the restart is %s %q, want the game's board as text; %v", m.Kind, m.Text, r.srv.Calls())
	}
	settle(t, ctx, b, out)
	if !r.showsTheGameAsText(inlineID) {
		t.Fatal("the game's board on the inline message was edited away")
	}
	return r, inlineID
}

// An offer posted as text says so on its Accept, so its game is made
// knowing its card is text and its first edit goes as text: the process
// killed at that edit's answer loses nothing (the old code tried a photo,
// which Telegram refused, and the text fallback died with the process's
// memory: the next process tried the photo again and the message kept
// showing the offer).
func TestKilledAtATextOffersFirstEditTheGameIsShown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, inlineID := killedAtTheFirstEdit(t, ctx, func(data string) string { return data })
	for _, c := range r.srv.CallsTo("editMessageMedia") {
		if c.Params["inline_message_id"] == inlineID {
			t.Errorf("a photo edit of the text card was tried: %v", c)
		}
	}
}

// An offer posted before offers said so (its Accept has no ArgText): the
// first edit is tried as a photo, Telegram refuses it ("no media"), and
// the process is killed at that answer. The refused edit is still in the
// journal; the next process sends it, is refused too, and records the card
// as text and edits it so, where the old code's text fallback lived in the
// dead process's memory.
func TestKilledAtTheNoMediaRefusalTheNextProcessEditsAsText(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, _ := killedAtTheFirstEdit(t, ctx, func(data string) string {
		cb, err := bot.ParseCallback(data)
		if err != nil {
			t.Fatal(err)
		}
		cb.Arg = ""
		return cb.Encode()
	})
	if g, err := r.svc.Game(ctx, r.gameID); err != nil || !g.InlineText() {
		t.Errorf("the game after the refusal: %v, %v; want its card known as text", g, err)
	}
}
