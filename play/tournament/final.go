package tournament

import (
	"context"
	"errors"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
)

// FinalShown records that the final standings of tournament id
// of a chat went out (committed with their receipt): the clock stops
// showing them again, and the chat may start the next tournament.
func (s *Service) FinalShown(ctx context.Context, chatID int64, id string) error {
	if s.tours == nil {
		return ErrNotSetUp
	}
	for range maxAttempts {
		t, err := s.tours.Tournament(ctx, chatID)
		if err != nil {
			return err
		}
		if t.ID != id || t.Status != storage.TournamentFinished || !t.Listed() {
			return nil
		}
		t.FinalShown = true
		err = s.tours.UpdateTournament(ctx, t)
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
	}
	return play.ErrBusy
}

// FinalRefused records that Telegram refused the final
// standings of tournament id of a chat (it said why; nothing went out):
// they are owed again after tourFinalRetry under a new receipt, since the
// refused copy's mark would keep any later copy back. After
// tourFinalMaxRefusals the bot gives up on them, so that the group may
// start its next tournament.
func (s *Service) FinalRefused(ctx context.Context, chatID int64, id string) error {
	if s.tours == nil {
		return ErrNotSetUp
	}
	for range maxAttempts {
		t, err := s.tours.Tournament(ctx, chatID)
		if err != nil {
			return err
		}
		if t.ID != id || t.Status != storage.TournamentFinished || !t.Listed() {
			return nil
		}
		finalRefused(t, s.now())
		err = s.tours.UpdateTournament(ctx, t)
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
	}
	return play.ErrBusy
}

// SetLang rewrites the language of group chatID's tournament, if one is
// listed, so that its card follows the group from its next edit: wired to
// the bot's module (Module.ChatLang), told after the group chose it. Only
// the language changes (no step of the arena, so no event to show); a
// write lost to the arena's own is tried again from a fresh read.
func (s *Service) SetLang(ctx context.Context, chatID int64, lang string) {
	for range maxAttempts {
		t, err := s.tours.Tournament(ctx, chatID)
		if errors.Is(err, storage.ErrNotFound) {
			return
		}
		if err == nil {
			if !t.Listed() || t.Lang == lang {
				return
			}
			t.Lang = lang
			err = s.tours.UpdateTournament(ctx, t)
		}
		if !errors.Is(err, storage.ErrConflict) {
			if err != nil {
				s.log.Warn("the tournament kept its group's old language", "chat", chatID, "err", err)
			}
			return
		}
	}
}

// groupLang is the language of a new tournament's card in chatID: the
// group's choice, else fallback (the starter's). A store that does not
// answer leaves the fallback: the tournament is still made.
func (s *Service) groupLang(ctx context.Context, chatID int64, fallback string) string {
	lang, err := s.core.ChatLang(ctx, chatID)
	if err != nil {
		s.log.Warn("the group's language is unknown; the starter's is used", "chat", chatID, "err", err)
	}
	if lang == "" {
		return fallback
	}
	return lang
}

// finalRefused counts a copy of t's final standings refused at now: they
// are owed again from a new receipt, unless tourFinalMaxRefusals copies
// were, and the group may then start its next tournament.
func finalRefused(t *storage.Tournament, now time.Time) {
	t.FinalRefused++
	t.Receipt, t.FinalAt, t.FinalTries = 0, now, 0
	t.FinalGaveUp = t.FinalRefused >= tourFinalMaxRefusals
}
