package play

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Arena tournaments in a group. The tournament lives in one stored record
// a group (storage.Tournament), written by compare-and-set: joining,
// leaving, pausing, a game's end, pairing, the call of time and the end
// are each one write that exactly one replica wins. Nothing waits in a
// process's memory: the clock's tick (TournamentTick) and each game's end
// (TournamentGameOver) both move the tournament on from the stored state,
// whichever comes first, so a crash loses nothing but a moment.
//
// Its games are ordinary live games, rated as usual, each shown in both
// players' private chats (the game's card in White's, a second card in
// Black's, storage.TourLink), where Telegram paces each chat on its own:
// the group sees only the tournament's card and the results.

// Bounds of a tournament's length.
const (
	MinTourDuration = 5 * time.Minute
	MaxTourDuration = 3 * time.Hour
)

// TournamentStore is what tournaments need of storage.
type TournamentStore = storage.Tournaments

// WithTournaments keeps the groups' tournaments in ts.
func WithTournaments(ts TournamentStore) Option { return func(s *Service) { s.tours = ts } }

// ParseTourDuration reads a tournament's length: "30m", "1h", "1h30m", or
// minutes alone ("45"); Russian "30м" and "1ч" too.
func ParseTourDuration(text string) (time.Duration, error) {
	s := strings.NewReplacer("мин", "m", "м", "m", "ч", "h").Replace(strings.ToLower(strings.TrimSpace(text)))
	d, err := time.ParseDuration(s)
	if err != nil {
		n, nerr := strconv.Atoi(s)
		if nerr != nil {
			return 0, fmt.Errorf("%w: %q", ErrBadDuration, text)
		}
		d = time.Duration(n) * time.Minute
	}
	if d < MinTourDuration || d > MaxTourDuration {
		return 0, fmt.Errorf("%w: %q", ErrBadDuration, text)
	}
	return d, nil
}

// TournamentRequest starts an arena tournament in a group.
type TournamentRequest struct {
	ChatID      int64
	By          storage.Player
	TimeControl string // e.g. "5+3"
	Duration    time.Duration
	Lang        string
}

// Tournament is a tournament as the bot shows it: a copy of the record.
type Tournament struct {
	storage.Tournament
}

// Standings ranks the tournament's players.
func (t *Tournament) Standings() []TourStanding { return Standings(&t.Tournament) }

// Player returns a player's line, if they are in the tournament.
func (t *Tournament) Player(userID int64) (storage.TourPlayer, bool) {
	i := slices.IndexFunc(t.Players, func(p storage.TourPlayer) bool { return p.UserID == userID })
	if i < 0 {
		return storage.TourPlayer{}, false
	}
	return t.Players[i], true
}

// TourEvent is what a step of a tournament did, for the bot to show.
type TourEvent struct {
	T *Tournament
	// Games are games to post: new pairings, and games whose cards went
	// missing with the process that was posting them.
	Games []*Game
	// Card: edit the group's card now (it is due; the write that said so
	// claimed the edit). Final: the final standings are owed (the
	// tournament has just finished, or they were never recorded shown):
	// send them committed with Receipt, then call TournamentFinalShown.
	Card    bool
	Final   bool
	Receipt int64
	// NoShow are the players this step paused because a game of theirs
	// ran out without their moving: they are told how to come back.
	NoShow []storage.TourPlayer
}

// StartTournament opens a tournament in a group; the bot posts its card
// and records it with AttachTournament.
func (s *Service) StartTournament(ctx context.Context, r TournamentRequest) (*Tournament, error) {
	if s.tours == nil {
		return nil, ErrNoTournaments
	}
	if r.ChatID >= 0 {
		return nil, ErrTournamentInChat
	}
	if _, _, err := ParseTimeControl(r.TimeControl); err != nil {
		return nil, err
	}
	if r.Duration < MinTourDuration || r.Duration > MaxTourDuration {
		return nil, fmt.Errorf("%w: %v", ErrBadDuration, r.Duration)
	}
	now := s.now()
	t := &storage.Tournament{
		ID: s.newID(), ChatID: r.ChatID, Lang: s.groupLang(ctx, r.ChatID, r.Lang), TimeControl: r.TimeControl, Variant: rules.Bashni.String(),
		CreatedBy: r.By, StartedAt: now, EndsAt: now.Add(r.Duration), Status: storage.TournamentRunning, CardAt: now,
	}
	if err := s.tours.CreateTournament(ctx, t); err != nil {
		if errors.Is(err, storage.ErrConflict) {
			return nil, ErrTournamentRuns
		}
		return nil, err
	}
	return &Tournament{*t}, nil
}

// AttachTournament records the group's card of tournament id.
func (s *Service) AttachTournament(ctx context.Context, chatID int64, id string, messageID int) error {
	_, err := s.advance(ctx, chatID, id, func(t *storage.Tournament) error {
		t.MessageID = messageID
		return nil
	})
	return err
}

// ChatTournament returns a chat's current (or latest) tournament.
func (s *Service) ChatTournament(ctx context.Context, chatID int64) (*Tournament, error) {
	if s.tours == nil {
		return nil, ErrNoTournaments
	}
	t, err := s.tours.Tournament(ctx, chatID)
	if isNotFound(err) {
		return nil, ErrNoTournament
	}
	if err != nil {
		return nil, err
	}
	return &Tournament{*t}, nil
}

// JoinTournament adds p to tournament id of a chat (a paused player comes
// back); they are paired at once if someone waits.
func (s *Service) JoinTournament(ctx context.Context, chatID int64, id string, p storage.Player, lang string) (*TourEvent, error) {
	return s.advance(ctx, chatID, id, func(t *storage.Tournament) error {
		if t.Status != storage.TournamentRunning {
			return ErrTournamentOver
		}
		i := slices.IndexFunc(t.Players, func(x storage.TourPlayer) bool { return x.UserID == p.UserID })
		if i >= 0 {
			if !t.Players[i].Paused {
				return ErrAlreadyJoined
			}
			t.Players[i].Paused, t.Players[i].NoShow, t.Players[i].FreeSince = false, false, s.now()
			return nil
		}
		t.Players = append(t.Players, storage.TourPlayer{UserID: p.UserID, Name: p.Name, Lang: lang, FreeSince: s.now()})
		return nil
	})
}

// LeaveTournament takes userID out of a tournament: one who has played
// no game is gone, one who has stays in the standings, paused (a game in
// progress is played to its end).
func (s *Service) LeaveTournament(ctx context.Context, chatID int64, id string, userID int64) (*TourEvent, error) {
	return s.advance(ctx, chatID, id, func(t *storage.Tournament) error {
		if t.Status == storage.TournamentFinished {
			return ErrTournamentOver
		}
		i := slices.IndexFunc(t.Players, func(x storage.TourPlayer) bool { return x.UserID == userID })
		if i < 0 {
			return ErrNotInTournament
		}
		if p := t.Players[i]; p.Results == "" && p.Game == "" {
			t.Players = slices.Delete(t.Players, i, i+1)
			return nil
		}
		t.Players[i].Paused = true // already paused: nothing changes
		return nil
	})
}

// PauseTournament pauses userID (not paired after the game in progress)
// or, if paused, brings them back; paused reports which.
func (s *Service) PauseTournament(ctx context.Context, chatID int64, id string, userID int64) (ev *TourEvent, paused bool, err error) {
	ev, err = s.advance(ctx, chatID, id, func(t *storage.Tournament) error {
		if t.Status != storage.TournamentRunning {
			return ErrTournamentOver
		}
		i := slices.IndexFunc(t.Players, func(x storage.TourPlayer) bool { return x.UserID == userID })
		if i < 0 {
			return ErrNotInTournament
		}
		p := &t.Players[i]
		p.Paused, p.NoShow = !p.Paused, false
		if !p.Paused {
			p.FreeSince = s.now()
		}
		paused = p.Paused
		return nil
	})
	return ev, paused, err
}

// TournamentGameOver moves the tournament of a finished game on: its
// result is recorded and its players are paired again. Any other game is
// no event (nil).
func (s *Service) TournamentGameOver(ctx context.Context, g *Game) (*TourEvent, error) {
	link := g.rec.Tour
	if link == nil || s.tours == nil {
		return nil, nil
	}
	ev, err := s.advance(ctx, link.ChatID, link.ID, nil)
	if errors.Is(err, ErrTournamentOver) {
		return nil, nil // long over: nothing to add
	}
	return ev, err
}

// TournamentTick moves every running tournament on (results the game ends
// did not record, pairing, the call of time, the end, the card's edit),
// each step won by one replica. Events with nothing to show are left out.
func (s *Service) TournamentTick(ctx context.Context) ([]*TourEvent, error) {
	if s.tours == nil {
		return nil, nil
	}
	chats, err := s.tours.RunningTournaments(ctx)
	if err != nil {
		return nil, err
	}
	var out []*TourEvent
	for _, chat := range chats {
		ev, err := s.advance(ctx, chat, "", nil)
		if err != nil {
			if errors.Is(err, ErrBusy) || errors.Is(err, ErrNoTournament) {
				continue
			}
			return out, err
		}
		if ev.Card || ev.Final || len(ev.Games) > 0 || len(ev.NoShow) > 0 {
			out = append(out, ev)
		}
	}
	return out, nil
}

// advance reads chat's tournament (it must be id, unless id is empty),
// lets change change it, steps it on (arenaStep) and writes it back by
// compare-and-set, deciding again from a fresh read when another writer
// won. After the write it creates the games it paired.
func (s *Service) advance(ctx context.Context, chatID int64, id string, change func(t *storage.Tournament) error) (*TourEvent, error) {
	if s.tours == nil {
		return nil, ErrNoTournaments
	}
	for range maxAttempts {
		t, games, err := s.readTour(ctx, chatID, id)
		if err != nil {
			return nil, err
		}
		before := t.Clone()
		step, err := s.moveTourOn(ctx, t, before, games, change)
		if err != nil {
			return nil, err
		}
		if reflect.DeepEqual(before, t) {
			return &TourEvent{T: &Tournament{*t}}, nil
		}
		err = s.tours.UpdateTournament(ctx, t)
		if errors.Is(err, storage.ErrConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return s.tourEvent(ctx, t, step), nil
	}
	return nil, ErrBusy
}

// readTour reads a chat's tournament (id, if given, must be it: a card of
// an earlier one is over) and the state of its games.
func (s *Service) readTour(ctx context.Context, chatID int64, id string) (*storage.Tournament, map[string]tourGameState, error) {
	t, err := s.tours.Tournament(ctx, chatID)
	if isNotFound(err) {
		return nil, nil, ErrNoTournament
	}
	if err != nil {
		return nil, nil, err
	}
	if id != "" && t.ID != id {
		return nil, nil, ErrTournamentOver // a card of an earlier tournament
	}
	games, err := s.tourGames(ctx, t)
	if err != nil {
		return nil, nil, err
	}
	return t, games, nil
}

// moveTourOn applies change (a join, leave or pause; nil from the clock
// or a game's end), pauses players who blocked the bot, and takes the
// arena's step (arenaStep).
func (s *Service) moveTourOn(ctx context.Context, t, before *storage.Tournament, games map[string]tourGameState, change func(t *storage.Tournament) error) (tourStep, error) {
	if change != nil {
		if err := change(t); err != nil {
			return tourStep{}, err
		}
		if !reflect.DeepEqual(before, t) {
			t.CardDirty = true // a join, leave or pause shows on the card
		}
	}
	away, err := s.tourAway(ctx, t)
	if err != nil {
		return tourStep{}, err
	}
	for i := range t.Players {
		if p := &t.Players[i]; away[p.UserID] && !p.Paused && p.Game == "" {
			// They blocked the bot since joining: a game's cards could
			// not reach them, and their opponent would wait for the flag.
			p.Paused, t.CardDirty = true, true
		}
	}
	step := arenaStep(t, games, s.now(), s.newID)
	if step.final && t.Receipt == 0 {
		t.Receipt = ReceiptOf(withNewReceipt(ctx))
	}
	return step, nil
}

// tourEvent is what a written step tells the bot: the tournament, whether
// its card or final is due, and the games it paired or posts again (each
// created here; one that fails is posted again by the clock).
func (s *Service) tourEvent(ctx context.Context, t *storage.Tournament, step tourStep) *TourEvent {
	ev := &TourEvent{T: &Tournament{*t.Clone()}, Card: step.card, Final: step.final, Receipt: t.Receipt}
	for _, id := range step.noShow {
		if p, ok := ev.T.Player(id); ok {
			ev.NoShow = append(ev.NoShow, p)
		}
	}
	for _, tg := range slices.Concat(step.paired, step.repost) {
		g, err := s.tourGame(ctx, t, tg)
		if err != nil {
			// The clock posts it again once tourRepostAfter passes.
			s.log.Warn("tournament game not created", "tournament", t.ID, "game", tg.ID, "err", err)
			continue
		}
		ev.Games = append(ev.Games, g)
	}
	return ev
}

// TournamentFinalShown records that the final standings of tournament id
// of a chat went out (committed with their receipt): the clock stops
// showing them again, and the chat may start the next tournament.
func (s *Service) TournamentFinalShown(ctx context.Context, chatID int64, id string) error {
	if s.tours == nil {
		return ErrNoTournaments
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
	return ErrBusy
}

// TournamentFinalRefused records that Telegram refused the final
// standings of tournament id of a chat (it said why; nothing went out):
// they are owed again after tourFinalRetry under a new receipt, since the
// refused copy's mark would keep any later copy back. After
// tourFinalMaxRefusals the bot gives up on them, so that the group may
// start its next tournament.
func (s *Service) TournamentFinalRefused(ctx context.Context, chatID int64, id string) error {
	if s.tours == nil {
		return ErrNoTournaments
	}
	for range maxAttempts {
		t, err := s.tours.Tournament(ctx, chatID)
		if err != nil {
			return err
		}
		if t.ID != id || t.Status != storage.TournamentFinished || !t.Listed() {
			return nil
		}
		t.FinalRefused++
		t.Receipt, t.FinalAt = 0, s.now()
		t.FinalGaveUp = t.FinalRefused >= tourFinalMaxRefusals
		err = s.tours.UpdateTournament(ctx, t)
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
	}
	return ErrBusy
}

// tourAway lists the waiting players who blocked the bot (Telegram said
// 403 to a message for them): they are paused rather than paired. Coming
// back to the bot's chat clears it (play.Touch), and Join resumes them.
func (s *Service) tourAway(ctx context.Context, t *storage.Tournament) (map[int64]bool, error) {
	away := map[int64]bool{}
	if t.Status != storage.TournamentRunning {
		return away, nil
	}
	for _, p := range t.Players {
		if p.Paused || p.Game != "" {
			continue
		}
		u, err := s.store.User(ctx, p.UserID)
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		away[p.UserID] = u.Blocked
	}
	return away, nil
}

// SetMirrorCard records the second card of tournament game id (Black's,
// in their private chat).
func (s *Service) SetMirrorCard(ctx context.Context, id string, messageID int) (*Game, error) {
	return s.update(ctx, id, func(g *Game) error {
		if g.rec.Tour == nil || g.rec.Tour.MirrorMessage == messageID {
			return errUnchanged
		}
		g.rec.Tour.MirrorMessage = messageID
		return nil
	})
}

// TourLink returns the game's tournament link (nil outside tournaments).
func (g *Game) TourLink() *storage.TourLink {
	if g.rec.Tour == nil {
		return nil
	}
	l := *g.rec.Tour
	return &l
}

// Mirrored returns g as its second card shows it (a tournament game, in
// Black's private chat): a copy whose card is that one (MessageID 0 until
// it is recorded), in Black's language. ok is false for a game with no
// second card.
func (g *Game) Mirrored() (m *Game, ok bool) {
	l := g.rec.Tour
	if l == nil || l.MirrorChat == 0 {
		return nil, false
	}
	m = g.Clone()
	m.mirror = true
	m.rec.ChatID, m.rec.MessageID, m.rec.InlineMessageID = l.MirrorChat, l.MirrorMessage, ""
	if l.MirrorLang != "" {
		m.rec.Lang = l.MirrorLang
	}
	// Still a tournament's game, but the copy has no second card of its own.
	m.rec.Tour = &storage.TourLink{ChatID: l.ChatID, ID: l.ID, EndsAt: l.EndsAt}
	return m, true
}

// ratingChat is the chat whose leaderboard a game counts in: its own, or
// its tournament's group (its card is in a private chat).
func (g *Game) ratingChat() int64 {
	if g.rec.Tour != nil {
		return g.rec.Tour.ChatID
	}
	return g.rec.ChatID
}
