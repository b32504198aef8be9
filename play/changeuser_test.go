package play

import (
	"context"
	"errors"
	"testing"

	"github.com/bashni/bashni/storage"
)

// alwaysOvertaken is a store on which another write of the user lands
// before every write: a person changed faster than one can keep up.
type alwaysOvertaken struct {
	UserStore
}

func (o alwaysOvertaken) PutUser(ctx context.Context, u *storage.User) error {
	other, err := o.User(ctx, u.ID)
	if err != nil {
		return err
	}
	other.Stats.Draws++
	if err := o.UserStore.PutUser(ctx, other); err != nil {
		return err
	}
	return o.UserStore.PutUser(ctx, u)
}

// changeUser writes only what change asks for, from the record as
// stored, and gives up (ErrBusy) after maxAttempts lost races.
func TestChangeUser(t *testing.T) {
	errRefused := errors.New("refused")
	tests := []struct {
		name     string
		stored   bool // Alice is stored before the change
		newUser  func(int64) *storage.User
		change   func(u *storage.User) error
		overtake bool
		want     error
		calls    int   // of change
		games    int   // Alice's, stored afterwards (-1: none stored)
		version  int64 // Alice's, stored afterwards
	}{
		{"a change", true, nil, addGame, false, nil, 1, 1, 2},
		{"a newcomer", false, newcomer, addGame, false, nil, 1, 1, 1},
		{"nobody to change", false, nil, addGame, false, storage.ErrNotFound, 0, -1, 0},
		{"nothing to write", true, nil, func(*storage.User) error { return errUnchanged }, false, nil, 1, 0, 1},
		{"a refusal", true, nil, func(*storage.User) error { return errRefused }, false, errRefused, 1, 0, 1},
		{"always overtaken", true, nil, addGame, true, ErrBusy, maxAttempts, 0, 1 + maxAttempts},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, st := newTestService(t)
			ctx := t.Context()
			if tt.stored {
				if err := st.PutUser(ctx, &storage.User{ID: alice.UserID}); err != nil {
					t.Fatal(err)
				}
			}
			var on UserStore = st
			if tt.overtake {
				on = alwaysOvertaken{st}
			}
			calls := 0
			u, err := changeUser(ctx, on, alice.UserID, tt.newUser, func(u *storage.User) error {
				calls++
				return tt.change(u)
			})
			if !errors.Is(err, tt.want) || (err == nil) != (u != nil) {
				t.Fatalf("changeUser: %+v, %v; want error %v", u, err, tt.want)
			}
			if calls != tt.calls {
				t.Errorf("change ran %d times, want %d", calls, tt.calls)
			}
			stored, err := st.User(ctx, alice.UserID)
			switch {
			case tt.games < 0:
				if !isNotFound(err) {
					t.Errorf("Alice stored: %+v, %v; want none", stored, err)
				}
			case err != nil:
				t.Fatal(err)
			case stored.Stats.Games != tt.games || stored.Version != tt.version:
				t.Errorf("Alice stored with %d games at version %d, want %d at %d",
					stored.Stats.Games, stored.Version, tt.games, tt.version)
			}
			if u != nil && stored != nil && u.Version != stored.Version {
				t.Errorf("changeUser returned version %d, stored is %d", u.Version, stored.Version)
			}
		})
	}
}

func addGame(u *storage.User) error {
	u.Stats.Games++
	return nil
}

// alwaysOvertakenLines is a store on which another write of the line
// lands before every write of it.
type alwaysOvertakenLines struct {
	Store
}

func (o alwaysOvertakenLines) SetStanding(ctx context.Context, scope int64, st *storage.Standing) error {
	other, err := o.Standing(ctx, scope, st.UserID)
	if err != nil {
		return err
	}
	other.Games += 10
	if err := o.Store.SetStanding(ctx, scope, &other); err != nil {
		return err
	}
	return o.Store.SetStanding(ctx, scope, st)
}

// changeLine is changeUser for a leaderboard line: it starts a line at
// StartRating, writes only what change asks for, from the line as
// stored, and gives up (ErrBusy) after maxAttempts lost races.
func TestChangeLine(t *testing.T) {
	const chat = -100
	errRefused := errors.New("refused")
	addLineGame := func(l *storage.Standing) error { l.Games++; return nil }
	tests := []struct {
		name     string
		stored   bool // Alice's line is stored before the change
		change   func(l *storage.Standing) error
		overtake bool
		want     error
		calls    int // of change
		games    int // on Alice's line afterwards (-1: none stored)
	}{
		{"a change", true, addLineGame, false, nil, 1, 2},
		{"a new line", false, addLineGame, false, nil, 1, 1},
		{"nothing to write", true, func(*storage.Standing) error { return errUnchanged }, false, nil, 1, 1},
		{"a refusal", true, func(*storage.Standing) error { return errRefused }, false, errRefused, 1, 1},
		{"always overtaken", true, addLineGame, true, ErrBusy, maxAttempts, 1 + 10*maxAttempts},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, clock, st := newTestService(t)
			ctx := t.Context()
			if tt.stored {
				if err := st.SetStanding(ctx, chat, &storage.Standing{UserID: alice.UserID, Name: "Alice", Rating: 1600, Games: 1}); err != nil {
					t.Fatal(err)
				}
			}
			var on Store = st
			if tt.overtake {
				on = alwaysOvertakenLines{st}
			}
			s := New(on, nil, DefaultConfig, clock.Now)
			calls := 0
			err := s.changeLine(ctx, chat, &storage.User{ID: alice.UserID, Name: "Alice"}, func(l *storage.Standing) error {
				calls++
				return tt.change(l)
			})
			if !errors.Is(err, tt.want) {
				t.Fatalf("changeLine: %v; want error %v", err, tt.want)
			}
			if calls != tt.calls {
				t.Errorf("change ran %d times, want %d", calls, tt.calls)
			}
			line, err := st.Standing(ctx, chat, alice.UserID)
			if err != nil {
				t.Fatal(err)
			}
			if line.Games != tt.games {
				t.Errorf("Alice's line has %d games, want %d", line.Games, tt.games)
			}
			if !tt.stored && line.Rating != StartRating {
				t.Errorf("a new line at %v, want %v", line.Rating, StartRating)
			}
		})
	}
}
