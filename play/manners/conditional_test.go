package manners

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// A line's answers are played in the opponent's move's own write, pair
// by pair, as the rules write them, whoever of two replicas (on either
// store) took the line and the move.
func TestLinePlayedOutAcrossReplicas(t *testing.T) {
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			r1 := newTestReplica(t)
			st := open(t, r1.core.Now)
			a, b := newReplica(st, r1.core.Now), newReplica(st, r1.core.Now)
			ctx := context.Background()
			g := a.start(t, alice, bob, func(s *play.GameSpec) { s.DaysPerMove = 1 })
			a.move(t, g.ID(), alice.UserID, "c3-d4")
			moves, err := ParseLine("b6-a5 G3-H4, a7-b6 h2-g3")
			if err != nil {
				t.Fatal(err)
			}
			l, err := a.SetLine(ctx, g.ID(), alice.UserID, moves)
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"b6-a5", "g3-h4", "a7-b6", "h2-g3"}; !slices.Equal(l.Moves, want) {
				t.Errorf("line stored as %v, want %v", l.Moves, want)
			}
			o := b.move(t, g.ID(), bob.UserID, "b6-a5")
			if got := o.Move.String(); got != "g3-h4" {
				t.Errorf("the move's outcome names %s, want the answer g3-h4", got)
			}
			got := a.game(t, g.ID())
			if want := []string{"c3-d4", "b6-a5", "g3-h4"}; !slices.Equal(got.Moves(), want) {
				t.Fatalf("moves as stored %v, want %v", got.Moves(), want)
			}
			if by, exp, ans, ok := Answered(got); !ok || by != alice.UserID || exp != "b6-a5" || ans != "g3-h4" {
				t.Errorf("Answered = %d %s %s %v, want Alice's b6-a5 g3-h4", by, exp, ans, ok)
			}
			if line := LineOf(got, alice.UserID); !slices.Equal(line, []string{"a7-b6", "h2-g3"}) {
				t.Errorf("line left %v, want the second pair", line)
			}
			a.move(t, g.ID(), bob.UserID, "a7-b6")
			got = b.game(t, g.ID())
			if n := len(got.Moves()); n != 5 || got.Moves()[4] != "h2-g3" {
				t.Errorf("moves %v, want the second answer h2-g3 last", got.Moves())
			}
			if line := LineOf(got, alice.UserID); line != nil {
				t.Errorf("a line played out is left as %v", line)
			}
		})
	}
}

// A move the line did not expect discards it, and is played as any move.
func TestLineDiscardedOnAnotherMove(t *testing.T) {
	r := newTestReplica(t)
	ctx := context.Background()
	g := r.start(t, alice, bob, nil)
	r.move(t, g.ID(), alice.UserID, "c3-d4")
	if _, err := r.SetLine(ctx, g.ID(), alice.UserID, []string{"b6-a5", "g3-h4"}); err != nil {
		t.Fatal(err)
	}
	r.move(t, g.ID(), bob.UserID, "b6-c5")
	got := r.game(t, g.ID())
	if n := got.Ply(); n != 2 {
		t.Errorf("ply %d after a move the line did not expect, want 2", n)
	}
	if line := LineOf(got, alice.UserID); line != nil {
		t.Errorf("line kept after a mismatch: %v", line)
	}
	if _, _, _, ok := Answered(got); ok {
		t.Error("an answer is shown that was never played")
	}
}

// A line is refused, with nothing stored, on one's own move, with an
// illegal move (named), against the AI, and in a game with a live clock.
func TestSetLineRefusals(t *testing.T) {
	r := newTestReplica(t)
	ctx := context.Background()
	g := r.start(t, alice, bob, nil)
	live := r.start(t, alice, bob, func(s *play.GameSpec) { s.TimeControl = "5+3" })
	vsAI := r.start(t, alice, robot, nil)
	r.move(t, g.ID(), alice.UserID, "c3-d4")
	for _, tt := range []struct {
		name string
		id   string
		user int64
		line []string
		want error
	}{
		{"own move", g.ID(), bob.UserID, []string{"b6-a5", "g3-h4"}, ErrYourMove},
		{"not a player", g.ID(), 99, []string{"b6-a5", "g3-h4"}, play.ErrNotAPlayer},
		{"live clock", live.ID(), bob.UserID, []string{"c3-d4", "b6-a5"}, ErrNotSlow},
		{"the AI", vsAI.ID(), 99, []string{"c3-d4", "b6-a5"}, play.ErrNotAPlayer},
		{"the AI's player", vsAI.ID(), alice.UserID, []string{"c3-d4", "b6-a5"}, ErrNotBetweenPeople},
		{"illegal answer", g.ID(), alice.UserID, []string{"b6-a5", "g3-e5"}, rules.ErrIllegalMove},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := r.game(t, tt.id).Version()
			_, err := r.SetLine(ctx, tt.id, tt.user, tt.line)
			if !errors.Is(err, tt.want) {
				t.Errorf("SetLine = %v, want %v", err, tt.want)
			}
			if after := r.game(t, tt.id).Version(); after != before {
				t.Errorf("a refused line wrote the game: version %d to %d", before, after)
			}
		})
	}
	_, err := r.SetLine(ctx, g.ID(), alice.UserID, []string{"b6-a5", "g3-h4", "a7-b6", "z9-h4"})
	var le *LineError
	if !errors.As(err, &le) || le.Index != 3 || le.Move != "z9-h4" {
		t.Errorf("SetLine with a bad 4th move = %v, want a LineError naming it", err)
	}
}

// ClearLine drops one's own line only.
func TestClearLine(t *testing.T) {
	r := newTestReplica(t)
	ctx := context.Background()
	g := r.start(t, alice, bob, nil)
	r.move(t, g.ID(), alice.UserID, "c3-d4")
	if _, err := r.SetLine(ctx, g.ID(), alice.UserID, []string{"b6-a5", "g3-h4"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ClearLine(ctx, g.ID(), bob.UserID); err != nil {
		t.Fatal(err)
	}
	if LineOf(r.game(t, g.ID()), alice.UserID) == nil {
		t.Fatal("Bob cleared Alice's line")
	}
	if _, err := r.ClearLine(ctx, g.ID(), alice.UserID); err != nil {
		t.Fatal(err)
	}
	if line := LineOf(r.game(t, g.ID()), alice.UserID); line != nil {
		t.Errorf("line %v after ClearLine", line)
	}
}

func TestParseLine(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
		err  error
	}{
		{"e7-f6 c3-d4", []string{"e7-f6", "c3-d4"}, nil},
		{"  e7-f6,c3-d4;  f6:d4 c5:e3 ", []string{"e7-f6", "c3-d4", "f6:d4", "c5:e3"}, nil},
		{"", nil, ErrBadLine},
		{"e7-f6", nil, ErrBadLine},
		{"a b c", nil, ErrBadLine},
		{strings.Repeat("a1-b2 ", 22), nil, ErrLineTooLong},
		{"a1-b2 " + strings.Repeat("x", 41), nil, ErrBadLine},
	} {
		got, err := ParseLine(tt.in)
		if !errors.Is(err, tt.err) || !slices.Equal(got, tt.want) {
			t.Errorf("ParseLine(%q) = %v, %v; want %v, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// Whatever is typed, ParseLine returns pairs of words without spaces that
// read back the same, or a refusal of the line's form.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"e7-f6 c3-d4", "a,b;c d", "", "е7-ф6 с3:е5", "x\u00a0y", strings.Repeat("a ", 30)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		moves, err := ParseLine(s)
		if err != nil {
			if !errors.Is(err, ErrBadLine) && !errors.Is(err, ErrLineTooLong) {
				t.Fatalf("ParseLine(%q): unexpected error %v", s, err)
			}
			return
		}
		if len(moves) == 0 || len(moves)%2 != 0 || len(moves) > 2*MaxPairs {
			t.Fatalf("ParseLine(%q) = %d moves", s, len(moves))
		}
		for _, m := range moves {
			if m == "" || len(m) > maxMoveText || strings.ContainsAny(m, " ,;\t\n") {
				t.Fatalf("ParseLine(%q): move %q", s, m)
			}
		}
		again, err := ParseLine(strings.Join(moves, " "))
		if err != nil || !slices.Equal(again, moves) {
			t.Fatalf("ParseLine(%q) = %v, read back as %v, %v", s, moves, again, err)
		}
	})
}
