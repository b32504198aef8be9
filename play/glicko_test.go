package play

import (
	"math"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/rating"
	"github.com/bashni/bashni/storage"
)

// A rated game moves both players' ratings and deviations as Glicko-2
// does with the game as a period of its own, globally and in the group:
// Alice, who kept an Elo rating from before (carried over at this first
// count), beats Bob, a newcomer.
func TestRatedGameIsGlicko(t *testing.T) {
	for name, open := range replicaStores {
		t.Run(name, func(t *testing.T) {
			clock := testkit.NewClock(time.Now())
			st := open(t, clock.Now).(storage.Store)
			ctx := t.Context()
			if err := st.PutUser(ctx, &storage.User{ID: alice.UserID, Name: alice.Name, Rating: 1620, Stats: storage.Stats{Games: 40}}); err != nil {
				t.Fatal(err)
			}
			if err := st.SetStanding(ctx, -100, &storage.Standing{UserID: alice.UserID, Name: alice.Name, Rating: 1580, Games: 12}); err != nil {
				t.Fatal(err)
			}
			s := New(st, nil, DefaultConfig, clock.Now)
			g := startGame(t, s)
			openBoth(t, s, g)
			if _, err := s.Resign(ctx, g.ID(), bob.UserID); err != nil {
				t.Fatal(err)
			}

			wantA, wantB := rating.Game(rating.FromElo(1620, StartRating), rating.New(StartRating), 1)
			chatA, chatB := rating.Game(rating.FromElo(1580, StartRating), rating.New(StartRating), 1)
			for _, x := range []struct {
				id           int64
				global, chat rating.Rating
			}{{alice.UserID, wantA, chatA}, {bob.UserID, wantB, chatB}} {
				u, err := st.User(ctx, x.id)
				if err != nil {
					t.Fatal(err)
				}
				if got := UserRating(u); !sameRating(got, x.global) || u.RD == 0 {
					t.Errorf("user %d's rating %+v (stored RD %v), want %+v", x.id, got, u.RD, x.global)
				}
				global, err := st.Standing(ctx, 0, x.id)
				if err != nil || !sameRating(LineRating(global), x.global) {
					t.Errorf("user %d's global line %+v, %v; want %+v", x.id, global, err, x.global)
				}
				line, err := st.Standing(ctx, -100, x.id)
				if err != nil || !sameRating(LineRating(line), x.chat) || line.RD == 0 {
					t.Errorf("user %d's group line %+v, %v; want %+v", x.id, line, err, x.chat)
				}
			}
			if !(wantA.R > 1620 && wantA.RD < rating.CarryRD && wantB.R < StartRating && wantB.RD < rating.MaxRD) {
				t.Errorf("the winner's %+v and the loser's %+v: want the winner up, the loser down, both surer", wantA, wantB)
			}
		})
	}
}

// An Elo rating kept from before Glicko-2 is carried over once, by the
// record's first write after the change (here the bot's Touch of who
// writes): the same number with a wide deviation; a record at the start
// nobody moved from becomes a newcomer's. Run again, it changes nothing.
func TestEloCarriedOverOnce(t *testing.T) {
	for name, open := range replicaStores {
		t.Run(name, func(t *testing.T) {
			clock := testkit.NewClock(time.Now())
			st := open(t, clock.Now).(storage.Store)
			ctx := t.Context()
			s := New(st, nil, DefaultConfig, clock.Now)
			for _, x := range []struct {
				elo  float64
				want rating.Rating
			}{
				{1620, rating.Rating{R: 1620, RD: rating.CarryRD, Vol: rating.StartVol}},
				{StartRating, rating.New(StartRating)},
			} {
				id := int64(7000 + x.elo)
				if err := st.PutUser(ctx, &storage.User{ID: id, Name: "Elo", Rating: x.elo, UpdatedAt: clock.Now()}); err != nil {
					t.Fatal(err)
				}
				var versions []int64
				for range 2 {
					u, err := s.Touch(ctx, Profile{ID: id, Name: "Elo"})
					if err != nil {
						t.Fatal(err)
					}
					versions = append(versions, u.Version)
					stored, err := st.User(ctx, id)
					if err != nil {
						t.Fatal(err)
					}
					if got := (rating.Rating{R: stored.Rating, RD: stored.RD, Vol: stored.Vol}); got != x.want {
						t.Errorf("Elo %v stored as %+v, want %+v", x.elo, got, x.want)
					}
				}
				if versions[0] != 2 || versions[1] != 2 {
					t.Errorf("Elo %v: versions %v after two runs; want one write (2, 2)", x.elo, versions)
				}
			}
		})
	}
}

// Two replicas carry Alice's Elo rating over at once: one's Touch and the
// other's count of a game she won, each landing between the other's read
// and write. Whichever comes first, she is carried over once and the
// game counted once, on the carried rating.
func TestEloCarriedOverOnceByTwoReplicas(t *testing.T) {
	touch := func(t *testing.T, on replica) {
		if _, err := on.s.Touch(t.Context(), Profile{ID: alice.UserID, Name: "Alice", Username: "alice_b"}); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := rating.Game(rating.FromElo(1620, StartRating), rating.New(StartRating), 1)
	for name, open := range replicaStores {
		for _, row := range []struct {
			name          string
			first, second raceStep // second lands between first's read and write
		}{
			{"a count during Touch", touch, countAlices(0)},
			{"Touch during a count", countAlices(0), touch},
		} {
			t.Run(name+"/"+row.name, func(t *testing.T) {
				clock := testkit.NewClock(time.Now())
				st := open(t, clock.Now).(storage.Store)
				ctx := t.Context()
				r := &userRace{st: st}
				on := &overtaken{Store: st, user: alice.UserID, overtake: func() { row.second(t, r.b) }}
				r.a = replica{New(on, nil, DefaultConfig, clock.Now), r}
				r.b = replica{New(st, nil, DefaultConfig, clock.Now), r}
				if err := st.PutUser(ctx, &storage.User{ID: alice.UserID, Name: "Alice", Rating: 1620, UpdatedAt: clock.Now()}); err != nil {
					t.Fatal(err)
				}
				r.games[0] = owedGame(t, r.b.s, st, clock.Now, alice, bob, 401)
				row.first(t, r.a)
				if !on.came {
					t.Fatal("the second change never came between the first's read and write")
				}
				u, err := st.User(ctx, alice.UserID)
				if err != nil {
					t.Fatal(err)
				}
				if got := UserRating(u); !sameRating(got, want) || u.Stats.Games != 1 || u.Username != "alice_b" {
					t.Errorf("Alice's rating %+v, %+v, username %q; want %+v, one game, alice_b", got, u.Stats, u.Username, want)
				}
			})
		}
	}
}

func sameRating(a, b rating.Rating) bool {
	return math.Abs(a.R-b.R) < 1e-9 && math.Abs(a.RD-b.RD) < 1e-9 && math.Abs(a.Vol-b.Vol) < 1e-9
}
