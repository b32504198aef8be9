package bot

import (
	"sync"

	"github.com/bashni/bashni/play"
)

// A card being re-posted (/board) is not known to Telegram until it
// answers. An edit asked for meanwhile (a move tapped on the old card a
// moment after /board) would land on the old card, which is about to lose
// its buttons, and the new card would show the board from before the
// move. Such edits wait for the new card instead and are then made on it.

// repost is a card in flight for a game: the newest edit asked for since.
type repost struct {
	mu     sync.Mutex
	closed bool       // the card's fate is known; edits go ahead
	latest *play.Game // newest state an edit was asked for, nil if none
	view   cardView
	theme  string
}

// startRepost marks g's card as being re-posted and returns the mark, for
// endRepost. A newer card's mark replaces an older one's: the edits asked
// for from then on wait for the newest card.
func (b *Bot) startRepost(gameID string) *repost {
	rp := &repost{}
	b.reposts.Store(gameID, rp)
	return rp
}

// deferEdit keeps an edit of g's card for when the re-posted card is known,
// and reports whether it did (false: edit now).
func (b *Bot) deferEdit(g *play.Game, v cardView, theme string) bool {
	x, ok := b.reposts.Load(g.ID())
	if !ok {
		return false
	}
	rp := x.(*repost)
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.closed {
		return false
	}
	if rp.latest == nil || g.Version() >= rp.latest.Version() {
		// A copy: the edit is made later, on another goroutine, and
		// fills in where the card is, while the caller goes on with g.
		rp.latest, rp.view, rp.theme = g.Clone(), v, theme
	}
	return true
}

// endRepost is called once the re-posted card rp marks is sent (its
// message id recorded where locateCard finds it) or failed: the newest edit
// kept for it is made now, on whichever card is the game's. The mark of a
// card posted since (a /board a moment after the game's first card) stays:
// edits wait for that card, not for this one's answer.
func (b *Bot) endRepost(gameID string, rp *repost) {
	b.reposts.CompareAndDelete(gameID, rp)
	rp.mu.Lock()
	rp.closed = true
	g, v, theme := rp.latest, rp.view, rp.theme
	rp.mu.Unlock()
	if g != nil {
		b.editCard(g, v, theme, nil)
	}
}
