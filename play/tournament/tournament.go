package tournament

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Bounds of a tournament's length.
const (
	MinDuration = 5 * time.Minute
	MaxDuration = 3 * time.Hour
)

// Store is what tournaments need of storage (storage.Tournaments says
// what each write promises; storage/bolt and storage/redis keep it), and
// the game records the arena reads its games' ends from.
type Store interface {
	CreateTournament(ctx context.Context, t *storage.Tournament) error
	Tournament(ctx context.Context, chatID int64) (*storage.Tournament, error)
	UpdateTournament(ctx context.Context, t *storage.Tournament) error
	RunningTournaments(ctx context.Context) ([]int64, error)
	Game(ctx context.Context, id string) (*storage.GameRecord, error)
}

// Status says where a tournament is in its life.
type Status = storage.TournamentStatus

// Statuses of a tournament.
const (
	Running  = storage.TournamentRunning
	Ending   = storage.TournamentEnding
	Finished = storage.TournamentFinished
)

// Service runs the groups' tournaments over the game service core (whose
// games they play, by whose clock) and the store tours. It is safe for
// concurrent use.
type Service struct {
	core  *play.Service
	tours Store
	now   func() time.Time
	newID func() string
	log   *slog.Logger
}

// New returns the tournaments' service; log may be nil.
func New(core *play.Service, tours Store, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{core: core, tours: tours, now: core.Now, newID: play.NewID, log: log}
}

// ParseDuration reads a tournament's length: "30m", "1h", "1h30m", or
// minutes alone ("45"); Russian "30м" and "1ч" too.
func ParseDuration(text string) (time.Duration, error) {
	s := strings.NewReplacer("мин", "m", "м", "m", "ч", "h").Replace(strings.ToLower(strings.TrimSpace(text)))
	d, err := time.ParseDuration(s)
	if err != nil {
		n, nerr := strconv.Atoi(s)
		if nerr != nil {
			return 0, fmt.Errorf("%w: %q", ErrBadDuration, text)
		}
		d = time.Duration(n) * time.Minute
	}
	if d < MinDuration || d > MaxDuration {
		return 0, fmt.Errorf("%w: %q", ErrBadDuration, text)
	}
	return d, nil
}

// Request starts an arena tournament in a group.
type Request struct {
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
func (t *Tournament) Standings() []Standing { return Standings(&t.Tournament) }

// Player returns a player's line, if they are in the tournament.
func (t *Tournament) Player(userID int64) (storage.TourPlayer, bool) {
	i := slices.IndexFunc(t.Players, func(p storage.TourPlayer) bool { return p.UserID == userID })
	if i < 0 {
		return storage.TourPlayer{}, false
	}
	return t.Players[i], true
}

// Event is what a step of a tournament did, for the bot to show.
type Event struct {
	T *Tournament
	// Games are new pairings, whose cards to post; Again are games whose
	// cards were not recorded in time (the process posting them died, or
	// Telegram has not taken them yet): to post unless recorded by then.
	Games []*play.Game
	Again []*play.Game
	// Card: edit the group's card now (it is due; the write that said so
	// claimed the edit). Final: the final standings are owed (the
	// tournament has just finished, or they were never recorded shown):
	// send them committed with Receipt, then call FinalShown.
	Card    bool
	Final   bool
	Receipt int64
	// NoShow are the players this step paused because a game of theirs
	// ran out without their moving: they are told how to come back.
	NoShow []storage.TourPlayer
}

// Start opens a tournament in a group; the bot posts its card
// and records it with Attach.
func (s *Service) Start(ctx context.Context, r Request) (*Tournament, error) {
	if s.tours == nil {
		return nil, ErrNotSetUp
	}
	if r.ChatID >= 0 {
		return nil, ErrNotInGroup
	}
	if _, _, err := play.ParseTimeControl(r.TimeControl); err != nil {
		return nil, err
	}
	if r.Duration < MinDuration || r.Duration > MaxDuration {
		return nil, fmt.Errorf("%w: %v", ErrBadDuration, r.Duration)
	}
	now := s.now()
	t := &storage.Tournament{
		ID: s.newID(), ChatID: r.ChatID, Lang: s.groupLang(ctx, r.ChatID, r.Lang), TimeControl: r.TimeControl, Variant: rules.Bashni.String(),
		CreatedBy: r.By, StartedAt: now, EndsAt: now.Add(r.Duration), Status: storage.TournamentRunning, CardAt: now,
	}
	if err := s.tours.CreateTournament(ctx, t); err != nil {
		if errors.Is(err, storage.ErrConflict) {
			return nil, ErrRuns
		}
		return nil, err
	}
	return &Tournament{*t}, nil
}

// Attach records the group's card of tournament id.
func (s *Service) Attach(ctx context.Context, chatID int64, id string, messageID int) error {
	_, err := s.advance(ctx, chatID, id, func(t *storage.Tournament) error {
		t.MessageID = messageID
		return nil
	})
	return err
}

// Current returns a chat's current (or latest) tournament.
func (s *Service) Current(ctx context.Context, chatID int64) (*Tournament, error) {
	if s.tours == nil {
		return nil, ErrNotSetUp
	}
	t, err := s.tours.Tournament(ctx, chatID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, ErrNone
	}
	if err != nil {
		return nil, err
	}
	return &Tournament{*t}, nil
}

// Join adds p to tournament id of a chat (a paused player comes
// back); they are paired at once if someone waits.
func (s *Service) Join(ctx context.Context, chatID int64, id string, p storage.Player, lang string) (*Event, error) {
	return s.advance(ctx, chatID, id, func(t *storage.Tournament) error {
		if t.Status != storage.TournamentRunning {
			return ErrOver
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

// Leave takes userID out of a tournament: one who has played
// no game is gone, one who has stays in the standings, paused (a game in
// progress is played to its end).
func (s *Service) Leave(ctx context.Context, chatID int64, id string, userID int64) (*Event, error) {
	return s.advance(ctx, chatID, id, func(t *storage.Tournament) error {
		if t.Status == storage.TournamentFinished {
			return ErrOver
		}
		i := slices.IndexFunc(t.Players, func(x storage.TourPlayer) bool { return x.UserID == userID })
		if i < 0 {
			return ErrNotJoined
		}
		if p := t.Players[i]; p.Results == "" && p.Game == "" {
			t.Players = slices.Delete(t.Players, i, i+1)
			return nil
		}
		t.Players[i].Paused = true // already paused: nothing changes
		return nil
	})
}

// Pause pauses userID (not paired after the game in progress)
// or, if paused, brings them back; paused reports which.
func (s *Service) Pause(ctx context.Context, chatID int64, id string, userID int64) (ev *Event, paused bool, err error) {
	ev, err = s.advance(ctx, chatID, id, func(t *storage.Tournament) error {
		if t.Status != storage.TournamentRunning {
			return ErrOver
		}
		i := slices.IndexFunc(t.Players, func(x storage.TourPlayer) bool { return x.UserID == userID })
		if i < 0 {
			return ErrNotJoined
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
