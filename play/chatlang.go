package play

import (
	"context"
	"fmt"

	"github.com/bashni/bashni/storage"
)

// A group has a language of its own: the one an administrator chose with
// /lang (the bot checks who may), else, game by game, the challenger's
// (the players' when they share one, since then it is the challenger's
// too). A game's record keeps the language its group card is written in
// (GameRecord.Lang), made from the group's choice when the game is made
// and rewritten on the group's active games when the choice changes, so
// that whoever draws a card (any replica, the outbox at send time) reads
// it with the game and no second record.

// ChatLang is the language group chatID chose, "" if it chose none (or
// chatID is not a group).
func (s *Service) ChatLang(ctx context.Context, chatID int64) (string, error) {
	if chatID >= 0 {
		return "", nil
	}
	c, err := s.store.Chat(ctx, chatID)
	if isNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return c.Lang, nil
}

// SetChatLang stores group chatID's language and rewrites it on the
// group's active games, whose cards are then drawn in it from their next
// edit. A game whose write fails keeps its language; the others still
// change.
func (s *Service) SetChatLang(ctx context.Context, chatID int64, lang string) error {
	if chatID >= 0 || lang == "" {
		return fmt.Errorf("play: chat %d has no language of its own to set to %q", chatID, lang)
	}
	if err := s.store.PutChat(ctx, storage.Chat{ID: chatID, Lang: lang}); err != nil {
		return err
	}
	ids, err := s.store.ActiveGamesByChat(ctx, chatID)
	if err != nil {
		return err
	}
	// A bookkeeping write: no event to show, so no receipt's.
	ctx = context.WithValue(ctx, receiptKey{}, (*receipt)(nil))
	for _, id := range ids {
		_, err := s.update(ctx, id, func(g *Game) error {
			if g.rec.Lang == lang {
				return errUnchanged
			}
			g.rec.Lang = lang
			return nil
		})
		if err != nil {
			s.log.Warn("a game kept its group's old language", "game", id, "chat", chatID, "err", err)
		}
	}
	return nil
}

// groupLang is the language of a new game's group
// card in chatID: the group's choice, else fallback (the challenger's,
// the starter's). A store that does not answer leaves the fallback: the
// game is still made.
func (s *Service) groupLang(ctx context.Context, chatID int64, fallback string) string {
	lang, err := s.ChatLang(ctx, chatID)
	if err != nil {
		s.log.Warn("the group's language is unknown; the challenger's is used", "chat", chatID, "err", err)
	}
	if lang == "" {
		return fallback
	}
	return lang
}
