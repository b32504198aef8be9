package team

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// startPollGame starts a team game voted by poll and sends its first poll
// as the bot would: claimed, then named "p1" in message 10.
func startPollGame(t *testing.T, s *testService) (*play.Game, *PollPlan) {
	t.Helper()
	ctx := context.Background()
	g, err := s.NewGame(ctx, GameRequest{ChatID: -100, ChatName: "The chat", Level: 1, Color: play.ColorWhite, Poll: true})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := s.ClaimPoll(ctx, g.ID())
	if err != nil || plan == nil {
		t.Fatalf("ClaimPoll: %+v, %v", plan, err)
	}
	if again, err := s.ClaimPoll(ctx, g.ID()); err != nil || again != nil {
		t.Fatalf("the poll was claimed twice: %+v, %v", again, err)
	}
	if stop, err := s.PollSent(ctx, g.ID(), plan.Ply, "p1", 10); err != nil || stop {
		t.Fatalf("PollSent: stop %v, %v", stop, err)
	}
	return g, plan
}

// option returns the index of move among a poll's options.
func option(t *testing.T, plan *PollPlan, move string) []int {
	t.Helper()
	i := slices.Index(plan.Moves, move)
	if i < 0 {
		t.Fatalf("%s is not among the poll's options %v", move, plan.Moves)
	}
	return []int{i}
}

// Poll answers are ballots like any other: a changed answer replaces the
// member's earlier one, a retracted one withdraws it, a member who voted
// by /vote cannot vote again in the poll, and the vote closes on time with
// the majority move. Then the poll is stopped once, and its late answers
// are refused.
func TestPollVotesAreBallots(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	g, plan := startPollGame(t, s)
	legal := rules.SortedMoves(g.Rules().Legal())
	if len(plan.Moves) != len(legal) || plan.Ply != 0 {
		t.Fatalf("the first poll offers %v, want all %d legal moves", plan.Moves, len(legal))
	}
	poll := func(voter storage.Player, options []int) *VoteOutcome {
		t.Helper()
		out, err := s.PollVote(ctx, "p1", voter, options)
		if err != nil {
			t.Fatalf("%s answers %v: %v", voter.Name, options, err)
		}
		return out
	}
	if out := poll(alice, option(t, plan, "g3-h4")); out.Votes != 1 || out.Ballots != 1 || out.Move.String() != "g3-h4" {
		t.Fatalf("Alice's answer: %+v", out)
	}
	poll(bob, option(t, plan, "a3-b4"))
	if out := poll(bob, nil); !out.Retracted || out.Ballots != 1 {
		t.Fatalf("Bob's retraction: %+v, want one ballot left", out)
	}
	poll(bob, option(t, plan, "c3-d4"))
	if out := poll(bob, option(t, plan, "g3-h4")); out.Votes != 2 || out.Ballots != 2 {
		t.Fatalf("Bob's changed answer: %+v, want two votes for g3-h4 of two", out)
	}
	mustVote(t, s, g.ID(), carol, play.AnyPly, "a3-b4")
	if _, err := s.PollVote(ctx, "p1", carol, option(t, plan, "g3-h4")); !errors.Is(err, ErrAlreadyVoted) {
		t.Errorf("Carol answered the poll after /vote: %v, want ErrAlreadyVoted", err)
	}
	if _, err := s.PollVote(ctx, "p1", carol, nil); !errors.Is(err, ErrAlreadyVoted) {
		t.Errorf("Carol retracted a /vote ballot in the poll: %v, want ErrAlreadyVoted", err)
	}
	if _, err := s.PollVote(ctx, "p1", dave, []int{len(plan.Moves)}); !errors.Is(err, ErrBadPollAnswer) {
		t.Errorf("an answer beyond the options: %v", err)
	}
	if p, err := s.StopPoll(ctx, g.ID()); err != nil || p != nil {
		t.Fatalf("the open vote's poll was stopped: %+v, %v", p, err)
	}

	clock.Advance(DefaultWindow)
	evs, err := s.Tick(ctx, 10)
	if err != nil || len(evs) != 1 || evs[0].Move.String() != "g3-h4" {
		t.Fatalf("Tick: %+v, %v; want g3-h4 played", evs, err)
	}
	turns := Turns(evs[0].Game)
	want := []storage.Ballot{{UserID: alice.UserID, Name: "Alice", Move: "g3-h4", ByPoll: true}, {UserID: bob.UserID, Name: "Bob", Move: "g3-h4", ByPoll: true}}
	if len(turns) != 1 || !slices.Equal(turns[0].For, want) || len(turns[0].Others) != 1 || turns[0].Others[0].UserID != carol.UserID {
		t.Errorf("closed vote %+v, want g3-h4 by Alice and Bob against Carol", turns)
	}
	if _, err := s.PollVote(ctx, "p1", dave, option(t, plan, "g3-h4")); !errors.Is(err, ErrVoteClosed) {
		t.Errorf("an answer after the vote closed: %v, want ErrVoteClosed", err)
	}
	p, err := s.StopPoll(ctx, g.ID())
	if err != nil || p == nil || p.ID != "p1" || p.MessageID != 10 {
		t.Fatalf("StopPoll after the vote: %+v, %v; want p1 in message 10", p, err)
	}
	if again, err := s.StopPoll(ctx, g.ID()); err != nil || again != nil {
		t.Errorf("the poll was stopped twice: %+v, %v", again, err)
	}
	if err := s.ForgetPoll(ctx, "p1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PollVote(ctx, "p1", dave, option(t, plan, "g3-h4")); !errors.Is(err, ErrVoteClosed) {
		t.Errorf("an answer in a forgotten poll: %v, want ErrVoteClosed", err)
	}
	if plan, err := s.ClaimPoll(ctx, g.ID()); err != nil || plan != nil {
		t.Errorf("a poll was claimed on the AI's turn: %+v, %v", plan, err)
	}
}

var dave = storage.Player{UserID: 4, Name: "Dave"}

// A retraction by the only voter gives the vote its full time again from
// the next first ballot; a poll whose vote closed while it was being sent
// is to be stopped at once.
func TestPollRetractionAndLateSend(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	_, plan := startPollGame(t, s)
	if _, err := s.PollVote(ctx, "p1", alice, option(t, plan, "c3-d4")); err != nil {
		t.Fatal(err)
	}
	clock.Advance(DefaultWindow / 2)
	if _, err := s.PollVote(ctx, "p1", alice, nil); err != nil {
		t.Fatal(err)
	}
	clock.Advance(DefaultWindow / 2)
	out, err := s.PollVote(ctx, "p1", bob, option(t, plan, "a3-b4"))
	if err != nil {
		t.Fatal(err)
	}
	// The first turn closes quietWindow after its latest ballot, within
	// the window from the first: from Bob's, not from Alice's retracted one.
	if v := VoteOf(out.Game); !v.ClosesAt.Equal(clock.Now().Add(quietWindow)) {
		t.Errorf("the vote closes at %v, want %v after Bob's ballot (%v)", v.ClosesAt, quietWindow, clock.Now().Add(quietWindow))
	}

	// A second game's poll is claimed, the vote closes by /vote before
	// Telegram has answered the send: the poll is to be stopped.
	h, err := s.NewGame(ctx, GameRequest{ChatID: -101, ChatName: "Other", Level: 1, Color: play.ColorWhite, Poll: true})
	if err != nil {
		t.Fatal(err)
	}
	hp, err := s.ClaimPoll(ctx, h.ID())
	if err != nil || hp == nil {
		t.Fatal(hp, err)
	}
	mustVote(t, s, h.ID(), alice, 0, "c3-d4")
	clock.Advance(DefaultWindow)
	if _, err := s.Tick(ctx, 10); err != nil {
		t.Fatal(err)
	}
	if stop, err := s.PollSent(ctx, h.ID(), hp.Ply, "p2", 11); err != nil || !stop {
		t.Errorf("a poll sent after its vote closed: stop %v, %v; want stop", stop, err)
	}
}

// An answer that comes while the poll is being recorded, after PollSent
// stored the poll's game and before the game's poll, is ErrUnknownPoll,
// as one before both writes: the process sending the poll waits for its
// record and counts it (bot's onPollAnswer). It changes nothing, and once
// the poll is recorded the same answer is a ballot.
func TestPollAnswerWhileThePollIsRecorded(t *testing.T) {
	s, _, st := newTestService(t)
	ctx := context.Background()
	g, err := s.NewGame(ctx, GameRequest{ChatID: -100, ChatName: "The chat", Level: 1, Color: play.ColorWhite, Poll: true})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := s.ClaimPoll(ctx, g.ID())
	if err != nil || plan == nil {
		t.Fatalf("ClaimPoll: %+v, %v", plan, err)
	}
	if _, err := s.PollVote(ctx, "p1", alice, option(t, plan, "g3-h4")); !errors.Is(err, ErrUnknownPoll) {
		t.Fatalf("an answer before the poll is recorded: %v, want ErrUnknownPoll", err)
	}
	// PollSent's first write, as if its second had not yet come.
	if err := st.PutPoll(ctx, "p1", g.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PollVote(ctx, "p1", alice, option(t, plan, "g3-h4")); !errors.Is(err, ErrUnknownPoll) {
		t.Fatalf("an answer between PollSent's writes: %v, want ErrUnknownPoll", err)
	}
	if v, err := s.Game(ctx, g.ID()); err != nil || VoteOf(v).Ballots != 0 {
		t.Fatalf("the answer between the writes left a ballot: %+v, %v", VoteOf(v), err)
	}
	if stop, err := s.PollSent(ctx, g.ID(), plan.Ply, "p1", 10); err != nil || stop {
		t.Fatalf("PollSent: stop %v, %v", stop, err)
	}
	out, err := s.PollVote(ctx, "p1", alice, option(t, plan, "g3-h4"))
	if err != nil || out.Ballots != 1 || out.Move.String() != "g3-h4" {
		t.Fatalf("the answer again once recorded: %+v, %v; want Alice's ballot for g3-h4", out, err)
	}
}

// The shortlist of a position with more legal moves than a poll holds is
// PollOptionsMax of them in notation order, the engine's choice among them;
// with fewer it is all of them.
func TestShortlist(t *testing.T) {
	p := rules.MustParsePosition("w:c1W,h2W,a7b,g7b")
	g := rules.NewGame(p)
	legal := g.Legal()
	if len(legal) <= PollOptionsMax {
		t.Fatalf("the position has %d legal moves, want more than %d", len(legal), PollOptionsMax)
	}
	got := Shortlist(context.Background(), g, PollOptionsMax)
	if len(got) != PollOptionsMax || !slices.IsSorted(got) {
		t.Fatalf("shortlist %v, want %d moves in notation order", got, PollOptionsMax)
	}
	var names []string
	for _, m := range legal {
		names = append(names, m.String())
	}
	for _, m := range got {
		if !slices.Contains(names, m) {
			t.Errorf("%s is not legal here (%v)", m, names)
		}
	}
	res, err := ai.New(ai.Options{HashMB: 1}).Search(context.Background(), ai.Request{Position: p, Limits: ai.Limits{Depth: shortlistDepth}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got, res.Move.String()) {
		t.Errorf("the engine's best move %s is not on the shortlist %v", res.Move, got)
	}
	start := rules.NewGame(rules.MustParsePosition(rules.StartText))
	if all := Shortlist(context.Background(), start, PollOptionsMax); len(all) != len(start.Legal()) {
		t.Errorf("the start's shortlist %v, want all %d moves", all, len(start.Legal()))
	}
}

// Replicas on one store (bbolt, and Redis as several processes share it):
// of two claims of a turn's poll one wins; answers taken by either
// replica at once all count (a poll_answer goes to whichever replica
// Telegram reaches), one changed on the other replica replaces the first;
// of two stops after the vote, one wins.
func TestPollAcrossReplicas(t *testing.T) {
	for name, open := range replicaStores {
		t.Run(name, func(t *testing.T) {
			clock := testkit.NewClock(time.Now())
			st := open(t, clock.Now)
			a, b := newReplica(st, nil, clock.Now), newReplica(st, nil, clock.Now)
			ctx := t.Context()
			g, err := a.NewGame(ctx, GameRequest{ChatID: -100, ChatName: "Club", Level: 1, Poll: true})
			if err != nil {
				t.Fatal(err)
			}
			plans := make(chan *PollPlan, 2)
			var wg sync.WaitGroup
			for _, s := range []*testService{a, b} {
				wg.Go(func() {
					p, err := s.ClaimPoll(ctx, g.ID())
					if err != nil {
						t.Error(err)
					}
					plans <- p
				})
			}
			wg.Wait()
			close(plans)
			var plan *PollPlan
			for p := range plans {
				if p != nil && plan != nil {
					t.Fatal("both replicas claimed the poll")
				}
				plan = cmp.Or(p, plan)
			}
			if plan == nil {
				t.Fatal("no replica claimed the poll")
			}
			if _, err := a.PollSent(ctx, g.ID(), plan.Ply, "p1", 10); err != nil {
				t.Fatal(err)
			}

			const voters = 10
			for i := range voters {
				s := []*testService{a, b}[i%2]
				wg.Go(func() {
					if _, err := s.PollVote(ctx, "p1", storage.Player{UserID: int64(100 + i)}, []int{i % 2}); err != nil {
						t.Errorf("voter %d on replica %d: %v", i, i%2, err)
					}
				})
			}
			wg.Wait()
			// Voter 100 answered on a; the change comes to b.
			if _, err := b.PollVote(ctx, "p1", storage.Player{UserID: 100}, []int{1}); err != nil {
				t.Fatal(err)
			}
			g, err = a.Game(ctx, g.ID())
			if err != nil {
				t.Fatal(err)
			}
			if v := VoteOf(g); v.Ballots != voters {
				t.Fatalf("%d ballots stored, want %d", v.Ballots, voters)
			}
			clock.Advance(DefaultWindow)
			evs, err := b.Tick(ctx, 10)
			if err != nil || len(evs) != 1 || evs[0].Move.String() != plan.Moves[1] {
				t.Fatalf("Tick: %+v, %v; want %s, six votes to four", evs, err, plan.Moves[1])
			}
			stops := make(chan *storage.TeamPoll, 2)
			for _, s := range []*testService{a, b} {
				wg.Go(func() {
					p, err := s.StopPoll(ctx, g.ID())
					if err != nil {
						t.Error(err)
					}
					stops <- p
				})
			}
			wg.Wait()
			close(stops)
			n := 0
			for p := range stops {
				if p != nil {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d replicas were to stop the poll, want one", n)
			}
		})
	}
}
