package bot

import (
	"context"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
)

// "typing" is shown while the AI really thinks, and never after its move.
// Telegram shows a chat action for about 5 s or until the bot sends a
// message, and an edit (how the AI's move is shown) does not end it; so an
// action sent for a search that ends in a moment says "typing" over the
// reply for seconds. The action therefore follows the board that says
// "thinking": that board is held for aiGrace and replaced, unsent, when the
// AI answers sooner (afterMove), and only once it has been sent, with the
// AI still thinking, does "typing" go out, in the chat's order after it.
// It is repeated while the search goes on.

// typingEvery repeats the action before Telegram's 5 s run out.
const typingEvery = 4 * time.Second

// aiThinking is the games whose AI is searching in this process.
type aiThinking struct {
	mu    sync.Mutex
	games map[string]bool
}

// thinking marks game id's search as started (true) or over (false).
// Marked over before the move is shown, no action can follow the move.
func (b *Bot) thinking(id string, on bool) {
	b.ai.mu.Lock()
	defer b.ai.mu.Unlock()
	if b.ai.games == nil {
		b.ai.games = map[string]bool{}
	}
	if on {
		b.ai.games[id] = true
	} else {
		delete(b.ai.games, id)
	}
}

// typing shows "typing" in g's chat if its AI still thinks, and again
// typingEvery later while it does. The check and the queueing hold the
// lock that thinking(id, false) takes, so the action is queued before the
// move's edit or not at all.
func (b *Bot) typing(g *play.Game) {
	if g.ChatID() == 0 {
		return
	}
	b.ai.mu.Lock()
	defer b.ai.mu.Unlock()
	if !b.ai.games[g.ID()] {
		return
	}
	r := chatReplyID(g.ChatID(), tgbotapi.NewChatAction(g.ChatID(), tgbotapi.ChatTyping))
	r.Done = func(_ *tgbotapi.Message, err error) {
		if err == nil {
			time.AfterFunc(typingEvery, func() { b.typingIfThinking(g) })
		}
	}
	b.send(r)
}

// typingIfThinking shows "typing" if the store, too, says the AI is still
// to move in g: the search may have ended elsewhere (another replica took
// the turn over), and then nothing here marks it over. The store is read
// off the outbox's sending goroutine, whose callbacks must not block.
func (b *Bot) typingIfThinking(g *play.Game) {
	b.background(func(ctx context.Context) {
		if cur, err := b.svc.Game(ctx, g.ID()); err != nil || !cur.Active() || !cur.IsAITurn() || cur.Ply() != g.Ply() {
			b.thinking(g.ID(), false)
			return
		}
		b.typing(g)
	})
}
