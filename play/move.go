package play

import (
	"context"
	"slices"
	"time"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

var timeZero time.Time

// AnyPly accepts a typed move whatever the board's version: typed moves
// name their squares, so they are checked against the board as it is.
const AnyPly = -1

// Outcome is what an operation did to a game, for the bot to show.
type Outcome struct {
	Game  *Game
	Move  rules.Move     // the move played, if any
	Mover storage.Player // who made it
	Ended bool           // the operation ended the game
	// MoverNotice is the mover's turn notice (see SetNotice), taken off
	// the record by the move itself: they have moved, so the bot deletes
	// the message. Doing it in the move's own write saves a second
	// compare-and-set on every move. 0 when there was none.
	MoverNotice int
}

// Move plays a move for user in game id. ply is the board's version the
// player saw (AnyPly for typed moves): if the board has changed since, the
// move is refused with ErrStale and nothing changes. An illegal move returns
// the rules' *MoveError (errors.Is rules.ErrIllegalMove), which says why and
// lists the legal moves.
func (s *Service) Move(ctx context.Context, id string, userID int64, ply int, text string) (*Outcome, error) {
	return s.move(ctx, id, nil, userID, ply, text)
}

// MoveFrom is Move in seen, the game as the caller has just read it
// (Service.Game, under the same receipt): the move is decided on it first
// rather than on a second read, and written only if the game is still as
// seen (a compare-and-set), else decided again on the game as stored.
func (s *Service) MoveFrom(ctx context.Context, seen *Game, userID int64, ply int, text string) (*Outcome, error) {
	return s.move(ctx, seen.ID(), seen, userID, ply, text)
}

func (s *Service) move(ctx context.Context, id string, seen *Game, userID int64, ply int, text string) (*Outcome, error) {
	var out Outcome
	g, err := s.actFrom(ctx, id, seen, func(g *Game) error {
		if err := g.MayMove(userID, ply); err != nil {
			return err
		}
		c, _ := g.ColorOf(userID)
		now := s.now()
		if g.rec.TimeControl != "" && g.Left(c, now) <= 0 {
			return ErrTimeUp // the flag has fallen: the clock's tick ends the game
		}
		m, err := g.rules.PlayText(text)
		if err != nil {
			return err
		}
		if g.rec.TimeControl != "" {
			chargeMove(g, c, now, s.cfg.ShowGrace)
		}
		// A player who moves is back: their clock's hold in this game is
		// over (a feature ends their absence in the others).
		g.Release(c, now)
		out.Move, out.Mover = m, g.Player(c)
		out.MoverNotice = g.rec.Notices[userID]
		delete(g.rec.Notices, userID)
		// A move declines a pending draw offer, and is news after a
		// declined one.
		g.rec.DrawOfferBy, g.rec.DrawDeclinedBy = 0, 0
		s.syncRecord(g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Game = g
	out.Ended = !g.rec.Active()
	if out.Ended {
		s.finished(ctx, g)
	}
	return &out, nil
}

// Game returns a game with its rules state. Under a receipt the game has
// had applied by another process (a redelivered update, events.go) it
// returns an *AppliedError instead: the handler's checks would refuse the
// update as stale, when what it is owed is the sight of its change.
func (s *Service) Game(ctx context.Context, id string) (*Game, error) {
	rec, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	g, err := s.replays.load(rec)
	if err != nil {
		return nil, err
	}
	if r := receiptOf(ctx); r != nil && r.applied(rec) {
		return nil, &AppliedError{Game: g}
	}
	return g, nil
}

// ActiveGames lists the games in progress of a user (chatID 0) or in a chat.
// Under a receipt that ended one of them (a redelivered update whose
// replies a crash cut off, events.go) it returns an *AppliedError with
// that game instead: the update is owed the sight of the end, not a
// search for a game that is no longer in progress.
func (s *Service) ActiveGames(ctx context.Context, userID, chatID int64) ([]*Game, error) {
	if err := s.endedUnder(ctx, userID, chatID); err != nil {
		return nil, err
	}
	var ids []string
	var err error
	if chatID != 0 {
		ids, err = s.store.ActiveGamesByChat(ctx, chatID)
	} else {
		ids, err = s.store.ActiveGamesByUser(ctx, userID)
	}
	if err != nil {
		return nil, err
	}
	games := make([]*Game, 0, len(ids))
	for _, id := range ids {
		g, err := s.Game(ctx, id)
		if err != nil {
			if isNotFound(err) {
				continue // finished or removed since the index was read
			}
			return nil, err
		}
		if g.rec.Active() {
			games = append(games, g)
		}
	}
	return games, nil
}

// endedUnder is the *AppliedError of the game of user (chatID 0) or in
// chat that the receipt in ctx ended in another process; nil if none.
func (s *Service) endedUnder(ctx context.Context, userID, chatID int64) error {
	r := receiptOf(ctx)
	if r == nil {
		return nil
	}
	id, err := s.store.EndedGameByReceipt(ctx, r.id)
	if isNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	rec, err := s.store.Game(ctx, id)
	if isNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	theirs := chatID != 0 && rec.ChatID == chatID || chatID == 0 && slices.Contains(rec.HumanIDs(), userID)
	if !theirs || !r.applied(rec) {
		return nil
	}
	g, err := s.replays.load(rec)
	if err != nil {
		return err
	}
	return &AppliedError{Game: g}
}

// SetCard records where a game's live card is shown, so it can be edited
// later. It does not change the board's version.
//
// A game in which the AI plays first has its first move owed from its
// creation; the process that records the card makes it, now that the card
// is there to show it.
func (s *Service) SetCard(ctx context.Context, id string, chatID int64, messageID int, inlineID string) (*Game, error) {
	g, err := s.update(ctx, id, func(g *Game) error {
		if g.rec.ChatID == chatID && g.rec.MessageID == messageID && g.rec.InlineMessageID == inlineID {
			return errUnchanged
		}
		if g.rec.InlineMessageID != inlineID {
			g.rec.InlineText = false // another message: not known to be text
		}
		g.rec.ChatID, g.rec.MessageID, g.rec.InlineMessageID = chatID, messageID, inlineID
		return nil
	})
	if err == nil && g.Ply() == 0 && g.IsAITurn() {
		s.oweAI(id)
	}
	return g, err
}

// CardRefused tells the service that game id's first card could not be
// posted: its player never started the bot (a game begun in the Mini
// App's lobby), so Telegram will not let the bot write to them. When the
// AI plays first, its move waited for that card (SetCard) and would
// otherwise wait for its claim to run out; this process makes it now, and
// the game is played on the Mini App's board.
func (s *Service) CardRefused(id string) { s.oweAI(id) }

// SetInlineText records that game id's card, inline message inlineID, is
// text: Telegram refused to edit it into a photo ("no media"), since the
// challenge was offered as text before the game could know it. Its later
// edits are made as text from the start (Game.InlineText). A game whose
// card is elsewhere by now is left alone.
func (s *Service) SetInlineText(ctx context.Context, id, inlineID string) error {
	_, err := s.update(ctx, id, func(g *Game) error {
		if g.rec.InlineMessageID != inlineID || g.rec.InlineText {
			return errUnchanged
		}
		g.rec.InlineText = true
		return nil
	})
	return err
}

// SetFirstCard records a new game's first card, as SetCard, with what its
// first turn is owed stored in the same write (EventFirstTurn, By skip: a
// player who needs no notice): the call that follows the card (a team
// game's first poll, the first "your move") is then owed by the store,
// not by the memory of the process that sent the card. The caller passes
// a receipt (Detached), whose event its bot shows, or any replica's tick
// after ShowAt. A card recorded already is no new card (its recorder owed
// the call); a newer one in the chat stays the card, and the call is
// owed all the same.
func (s *Service) SetFirstCard(ctx context.Context, id string, chatID int64, messageID int, skip int64) (*Game, error) {
	g, err := s.update(ctx, id, func(g *Game) error {
		rec := g.rec
		if rec.ChatID == chatID && rec.MessageID == messageID {
			return errUnchanged
		}
		if rec.ChatID != chatID || rec.MessageID < messageID || rec.InlineMessageID != "" {
			rec.ChatID, rec.MessageID, rec.InlineMessageID = chatID, messageID, ""
		}
		if rec.Active() { // an ended game's first turn is past calling
			g.owes = storage.GameEvent{Kind: EventFirstTurn, By: skip}
		}
		return nil
	})
	if err == nil && g.Ply() == 0 && g.IsAITurn() {
		s.oweAI(id)
	}
	return g, err
}

// SetNotice records the message that tells userID it is their move in game
// id (0 clears it), and returns the one it replaces, which the bot deletes.
// A notice for a player no longer to move is refused with ErrStale
// (ErrGameOver once the game ended): the bot deletes it instead.
func (s *Service) SetNotice(ctx context.Context, id string, userID int64, messageID int) (previous int, err error) {
	_, err = s.update(ctx, id, func(g *Game) error {
		previous = g.rec.Notices[userID]
		if previous == messageID {
			return errUnchanged
		}
		if messageID != 0 {
			// A notice sent a moment ago to a player who has moved since
			// (or to a game that ended) is not theirs to keep.
			if !g.rec.Active() {
				return ErrGameOver
			}
			if _, p := g.ToMove(); p.UserID != userID {
				return ErrStale
			}
		}
		if g.rec.Notices == nil {
			g.rec.Notices = map[int64]int{}
		}
		if messageID == 0 {
			delete(g.rec.Notices, userID)
		} else {
			g.rec.Notices[userID] = messageID
		}
		return nil
	})
	return previous, err
}
