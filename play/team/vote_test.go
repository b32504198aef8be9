package team

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// startTeamGame starts a game chat -100 plays as White against the AI.
func startTeamGame(t *testing.T, s *testService) *play.Game {
	t.Helper()
	g, err := s.NewGame(context.Background(), GameRequest{ChatID: -100, ChatName: "The chat", Level: 1, Color: play.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	if !Is(g) || g.IsAITurn() || g.White().Name != "The chat" || g.Black().AILevel != 1 {
		t.Fatalf("team game %+v vs %+v", g.White(), g.Black())
	}
	return g
}

func mustVote(t *testing.T, s *testService, id string, voter storage.Player, ply int, move string) *VoteOutcome {
	t.Helper()
	out, err := s.Vote(context.Background(), id, voter, ply, move)
	if err != nil {
		t.Fatalf("%s votes %s: %v", voter.Name, move, err)
	}
	return out
}

// Three members vote; the first vote has no earlier voters to wait for,
// so it closes quietWindow after its latest ballot (each ballot keeps
// it open that much longer, within the minute), and the Tick closes it
// with the majority move. On the next turn the vote closes as soon as all
// three have voted again.
func TestTeamVoteMajorityIsPlayed(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	g := startTeamGame(t, s)
	id := g.ID()

	mustVote(t, s, id, alice, 0, "g3-h4")
	clock.Advance(quietWindow - time.Second)
	out := mustVote(t, s, id, bob, 0, "a3-b4")
	if out.Closed != nil || out.Votes != 1 || out.Ballots != 2 {
		t.Fatalf("second ballot: %+v, want one vote for a3-b4 of two, still open", out)
	}
	clock.Advance(quietWindow - time.Second)
	out = mustVote(t, s, id, carol, 0, "G3H4") // typed loosely, counted as g3-h4
	if out.Closed != nil || out.Votes != 2 || out.Move.String() != "g3-h4" {
		t.Fatalf("third ballot: %+v", out)
	}
	if v := VoteOf(out.Game); !v.Open || v.Ballots != 3 || !v.ClosesAt.Equal(clock.Now().Add(quietWindow)) {
		t.Errorf("open vote %+v, want 3 ballots closing %v after the latest", v, quietWindow)
	}
	if tally := Tally(out.Game); len(tally) != 2 || tally[0] != (MoveVotes{"g3-h4", 2}) || tally[1] != (MoveVotes{"a3-b4", 1}) {
		t.Errorf("tally %+v, want g3-h4 2, a3-b4 1", tally)
	}

	clock.Advance(quietWindow - time.Second)
	if evs, err := s.Tick(ctx, 10); err != nil || len(evs) != 0 {
		t.Fatalf("Tick before the vote's time: %v, %v", evs, err)
	}
	clock.Advance(time.Second)
	evs, err := s.Tick(ctx, 10)
	if err != nil || len(evs) != 1 || !evs[0].Played || evs[0].Move.String() != "g3-h4" {
		t.Fatalf("Tick at the vote's time: %+v, %v; want g3-h4 played", evs, err)
	}
	g = evs[0].Game
	if g.Ply() != 1 || !g.IsAITurn() || VoteOf(g).Open {
		t.Fatalf("after the vote: ply %d, AI's turn %v", g.Ply(), g.IsAITurn())
	}
	turns := Turns(g)
	if len(turns) != 1 || turns[0].Move != "g3-h4" || len(turns[0].For) != 2 || len(turns[0].Others) != 1 ||
		turns[0].For[0] != (storage.Ballot{UserID: alice.UserID, Name: "Alice", Move: "g3-h4"}) || turns[0].For[1].UserID != carol.UserID {
		t.Errorf("closed vote %+v, want g3-h4 by Alice and Carol against Bob", turns)
	}
	if evs, _ := s.Tick(ctx, 10); len(evs) != 0 {
		t.Errorf("the closed vote closed again: %+v", evs)
	}

	if _, err := s.PlayAI(ctx, id); err != nil {
		t.Fatal(err)
	}
	g, _ = s.Game(ctx, id)
	legal := rules.SortedMoves(g.Rules().Legal())
	if len(legal) < 2 {
		t.Fatalf("too few moves to vote on: %v", legal)
	}
	x, y := legal[0].String(), legal[1].String()
	mustVote(t, s, id, bob, 2, x)
	if out := mustVote(t, s, id, alice, 2, y); out.Closed != nil {
		t.Fatal("the vote closed before Carol voted")
	}
	out = mustVote(t, s, id, carol, 2, y)
	if out.Closed == nil || out.Closed.Move.String() != y || out.Game.Ply() != 3 {
		t.Fatalf("the last of the recent voters voted: %+v, want %s played at once", out, y)
	}
	voters := Voters(out.Game)
	want := []Voter{{alice.UserID, "Alice", 2, 2}, {carol.UserID, "Carol", 2, 2}, {bob.UserID, "Bob", 2, 0}}
	if !slices.Equal(voters, want) {
		t.Errorf("voters %+v, want %+v", voters, want)
	}
}

// A tie goes to the move voted for first.
func TestTeamVoteTieGoesToTheFirstVote(t *testing.T) {
	s, clock, _ := newTestService(t)
	g := startTeamGame(t, s)
	mustVote(t, s, g.ID(), bob, 0, "g3-h4")
	mustVote(t, s, g.ID(), alice, 0, "c3-d4")
	mustVote(t, s, g.ID(), carol, 0, "c3-d4")
	dave := storage.Player{UserID: 4, Name: "Dave"}
	mustVote(t, s, g.ID(), dave, 0, "g3-h4")
	clock.Advance(DefaultWindow)
	evs, err := s.Tick(context.Background(), 10)
	if err != nil || len(evs) != 1 || evs[0].Move.String() != "g3-h4" {
		t.Fatalf("Tick: %+v, %v; want g3-h4, the first of two moves with two votes each", evs, err)
	}
}

// Bad ballots are refused with a reason and change nothing.
func TestTeamVoteRefusals(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := startTeamGame(t, s)
	mustVote(t, s, g.ID(), alice, 0, "c3-d4")
	plain := startGame(t, s)
	tests := []struct {
		name  string
		id    string
		voter storage.Player
		ply   int
		move  string
		want  error
	}{
		{"a second vote", g.ID(), alice, 0, "a3-b4", ErrAlreadyVoted},
		{"a second vote for the same move", g.ID(), alice, play.AnyPly, "c3-d4", ErrAlreadyVoted},
		{"a vote on another board", g.ID(), bob, 2, "c3-d4", ErrVoteClosed},
		{"an illegal move", g.ID(), bob, 0, "c3-c5", rules.ErrIllegalMove},
		{"not a team game", plain.ID(), bob, 0, "c3-d4", ErrNotTeamGame},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := s.store.Game(ctx, tt.id)
			if _, err := s.Vote(ctx, tt.id, tt.voter, tt.ply, tt.move); !errors.Is(err, tt.want) {
				t.Fatalf("Vote: %v, want %v", err, tt.want)
			}
			after, _ := s.store.Game(ctx, tt.id)
			if after.Version != before.Version {
				t.Errorf("a refused ballot wrote the game: version %d to %d", before.Version, after.Version)
			}
		})
	}
	// Members do not move directly in a team game.
	if _, err := s.Move(ctx, g.ID(), bob.UserID, 0, "c3-d4"); !errors.Is(err, play.ErrNotAPlayer) {
		t.Errorf("a direct move in a team game: %v, want play.ErrNotAPlayer", err)
	}
}

// A vote on the AI's turn, or on a turn already closed, is closed.
func TestTeamVoteOnAClosedTurn(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	g := startTeamGame(t, s)
	mustVote(t, s, g.ID(), alice, 0, "c3-d4")
	clock.Advance(DefaultWindow)
	if _, err := s.Tick(ctx, 10); err != nil {
		t.Fatal(err)
	}
	for _, ply := range []int{0, 1, play.AnyPly} {
		if _, err := s.Vote(ctx, g.ID(), bob, ply, "f6-e5"); !errors.Is(err, ErrVoteClosed) {
			t.Errorf("a vote at ply %d on the AI's turn: %v, want ErrVoteClosed", ply, err)
		}
	}
}

// The chat may play Black: the AI opens, and a window out of range is
// refused.
func TestNewGame(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g, err := s.NewGame(ctx, GameRequest{ChatID: -5, ChatName: "c", Level: 2, Color: play.ColorBlack, Variant: rules.Russian, Window: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	if !g.IsAITurn() || VoteOf(g).Open || VoteOf(g).Window != 30*time.Second || p.Variant() != rules.Russian {
		t.Errorf("chat as Black: AI's turn %v, vote %+v, variant %v", g.IsAITurn(), VoteOf(g), p.Variant())
	}
	for _, w := range []time.Duration{time.Second, 2 * time.Hour} {
		if _, err := s.NewGame(ctx, GameRequest{ChatID: -5, Level: 2, Window: w}); !errors.Is(err, ErrBadWindow) {
			t.Errorf("window %v: %v, want ErrBadWindow", w, err)
		}
	}
	if _, err := s.NewGame(ctx, GameRequest{ChatID: -5, Level: 99}); !errors.Is(err, play.ErrBadLevel) {
		t.Errorf("level 99: %v", err)
	}
}

// Two replicas on one store take ballots at once: every ballot counts once,
// and of two Ticks at the vote's time exactly one closes it.
func TestTeamVoteAcrossReplicas(t *testing.T) {
	a, clock, st := newTestService(t)
	b := newReplica(st, nil, clock.Now)
	ctx := context.Background()
	g := startTeamGame(t, a)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		svc := a
		if i%2 == 1 {
			svc = b
		}
		wg.Go(func() {
			move := "c3-d4"
			if i%3 == 0 {
				move = "g3-h4"
			}
			_, err := svc.Vote(ctx, g.ID(), storage.Player{UserID: int64(100 + i)}, 0, move)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a ballot failed: %v", err)
		}
	}
	g, _ = a.Game(ctx, g.ID())
	if v := VoteOf(g); v.Ballots != 20 {
		t.Fatalf("%d ballots stored, want 20", v.Ballots)
	}
	clock.Advance(DefaultWindow)
	var closed int
	var mu sync.Mutex
	for _, svc := range []*testService{a, b} {
		wg.Go(func() {
			evs, err := svc.Tick(ctx, 10)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			closed += len(evs)
			mu.Unlock()
		})
	}
	wg.Wait()
	g, _ = a.Game(ctx, g.ID())
	if closed != 1 || g.Ply() != 1 || Turns(g)[0].Move != "c3-d4" || len(Turns(g)[0].For) != 13 {
		t.Errorf("%d closings, ply %d, turns %+v; want one closing playing c3-d4 with 13 votes", closed, g.Ply(), Turns(g))
	}
}

// A chat that stops voting is out of time, as a player who stops moving:
// before its first move, the game is aborted (abort.go).
func TestTeamGameTimesOut(t *testing.T) {
	s, clock, _ := newTestService(t)
	g := startTeamGame(t, s)
	clock.Advance(play.DefaultConfig.TimeoutAfter)
	evs, err := s.Tick(context.Background(), 10)
	if err != nil || len(evs) != 1 || !evs[0].TimedOut || !evs[0].Game.Aborted() {
		t.Fatalf("Tick after the timeout: %+v, %v", evs, err)
	}
	_ = g
}

// The AI's move after a vote is owed in the store like any AI move, and
// once made the game waits for the chat's vote with no claim left open.
func TestTeamGameAITurnIsOwed(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	g := startTeamGame(t, s)
	mustVote(t, s, g.ID(), alice, 0, "c3-d4")
	clock.Advance(DefaultWindow)
	evs, err := s.Tick(ctx, 10)
	if err != nil || len(evs) != 1 || !evs[0].Played {
		t.Fatalf("Tick: %+v, %v", evs, err)
	}
	if rec, _ := s.store.Game(ctx, evs[0].Game.ID()); rec.AIAt.IsZero() {
		t.Error("the AI's move after the vote is not owed")
	}
	if _, err := s.PlayAI(ctx, g.ID()); err != nil {
		t.Fatal(err)
	}
	rec, _ := s.store.Game(ctx, g.ID())
	if !rec.AIAt.IsZero() || !rec.Deadline().Equal(rec.TimeoutAt) {
		t.Errorf("after the AI's move: AIAt %v, deadline %v; want only the chat's timeout", rec.AIAt, rec.Deadline())
	}
}

// A team game can be ended: by a majority of votes to resign, as any move
// is chosen, or at once by the member who started it. A resignation is
// counted like a move until then, and nothing else changes.
func TestTeamGameResignVote(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	g, err := s.NewGame(ctx, GameRequest{ChatID: -100, ChatName: "The chat", Level: 1, Color: play.ColorWhite, By: alice.UserID})
	if err != nil {
		t.Fatal(err)
	}
	mustVote(t, s, g.ID(), bob, 0, ResignVote)
	out := mustVote(t, s, g.ID(), carol, 0, ResignVote)
	mustVote(t, s, g.ID(), dave, 0, "g3-h4")
	if out.Closed != nil || !out.Game.Active() {
		t.Fatalf("two votes to resign by members: %+v, want the vote still open", out)
	}
	clock.Advance(quietWindow)
	evs, err := s.Tick(ctx, 10)
	if err != nil || len(evs) != 1 || evs[0].Game.Active() || evs[0].Game.Result() != "0-1" || evs[0].Game.Reason() != rules.Resignation.String() {
		t.Fatalf("the vote's end with a majority to resign: %+v, %v; want the chat (White) resigned", evs, err)
	}

	h, err := s.NewGame(ctx, GameRequest{ChatID: -101, ChatName: "Other", Level: 1, Color: play.ColorWhite, By: alice.UserID})
	if err != nil {
		t.Fatal(err)
	}
	mustVote(t, s, h.ID(), bob, 0, "g3-h4")
	out = mustVote(t, s, h.ID(), alice, 0, ResignVote)
	if out.Closed == nil || !out.Closed.Ended || out.Game.Active() || out.Game.Result() != "0-1" {
		t.Fatalf("the starter's vote to resign: %+v, want the game over at once", out)
	}
}
