package play

import (
	"context"

	"github.com/bashni/bashni/storage"
)

// A game may be shown in two chats: its own card in the chat it was made
// in (GameRecord.ChatID) and a second card, its mirror, in another (a
// pairing made by a feature: both players' private chats). The feature
// that starts such a game gives it a link (GameSpec.Link, kept as the
// record's storage.GameLink): the core reads of it only the mirror's chat, message and language, and the
// chat whose leaderboard the game counts in; the rest is the feature's.

// SetMirrorCard records the second card of game id (its mirror's
// message, in the link's MirrorChat).
func (s *Service) SetMirrorCard(ctx context.Context, id string, messageID int) (*Game, error) {
	return s.update(ctx, id, func(g *Game) error {
		if g.rec.Link == nil || g.rec.Link.MirrorMessage == messageID {
			return errUnchanged
		}
		g.rec.Link.MirrorMessage = messageID
		return nil
	})
}

// Link returns the link the feature that started the game gave it (a
// copy; nil for a game no feature started).
func (g *Game) Link() *storage.GameLink {
	if g.rec.Link == nil {
		return nil
	}
	l := *g.rec.Link
	return &l
}

// Mirrored returns g as its second card shows it: a copy whose card is
// that one (MessageID 0 until it is recorded), in the mirror's language.
// ok is false for a game with no second card.
func (g *Game) Mirrored() (m *Game, ok bool) {
	l := g.rec.Link
	if l == nil || l.MirrorChat == 0 {
		return nil, false
	}
	m = g.Clone()
	m.mirror = true
	m.rec.ChatID, m.rec.MessageID, m.rec.InlineMessageID = l.MirrorChat, l.MirrorMessage, ""
	if l.MirrorLang != "" {
		m.rec.Lang = l.MirrorLang
	}
	// Still linked, but the copy has no second card of its own.
	m.rec.Link = &storage.GameLink{ChatID: l.ChatID, ID: l.ID, Feature: l.Feature, EndsAt: l.EndsAt}
	return m, true
}

// mirrorChat is the chat of rec's second card, 0 if it has none.
func mirrorChat(rec *storage.GameRecord) int64 {
	if rec.Link == nil {
		return 0
	}
	return rec.Link.MirrorChat
}

// ratingChat is the chat whose leaderboard a game counts in: its own, or
// the one its link names (a pairing made for a group, played in private
// chats).
func (g *Game) ratingChat() int64 {
	if g.rec.Link != nil {
		return g.rec.Link.ChatID
	}
	return g.rec.ChatID
}
