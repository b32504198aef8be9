package rating

import (
	"math"
	"testing"
)

// TestGameIsAPeriodEach: a game moves both ratings and both deviations as
// Glicko-2 moves them in a period of that one game, each against the
// other's rating from before it.
func TestGameIsAPeriodEach(t *testing.T) {
	a, b := Rating{R: 1600, RD: 200, Vol: 0.06}, New(1500)
	gotA, gotB := Game(a, b, 1)
	wantA := a.Update(Result{Opponent: b, Score: 1})
	wantB := b.Update(Result{Opponent: a, Score: 0})
	if gotA != wantA || gotB != wantB {
		t.Fatalf("Game = %+v, %+v; want %+v, %+v", gotA, gotB, wantA, wantB)
	}
	if !(gotA.R > a.R && gotB.R < b.R && gotA.RD < a.RD && gotB.RD < b.RD) {
		t.Errorf("winner %+v, loser %+v from %+v, %+v: want the winner up, the loser down, both surer", gotA, gotB, a, b)
	}
	// The newcomer, less sure, moves further than the settled player.
	if math.Abs(gotB.R-b.R) <= math.Abs(gotA.R-a.R) {
		t.Errorf("newcomer moved %.1f, the surer player %.1f", gotB.R-b.R, gotA.R-a.R)
	}
	drawA, drawB := Game(New(1500), New(1500), 0.5)
	if drawA.R != 1500 || drawB.R != 1500 || drawA.RD >= MaxRD {
		t.Errorf("a draw between equals gave %+v, %+v", drawA, drawB)
	}
}

// TestProvisional: how many games between equals take a rating under
// ProvisionalRD against a settled player, from a newcomer's and from a
// carried Elo rating, as the docs say (about 11, and about 6).
func TestProvisional(t *testing.T) {
	for _, c := range []struct {
		name     string
		from     Rating
		min, max int
	}{
		{"newcomer", New(1500), 10, 12},
		{"carried", FromElo(1620, 1500), 5, 7},
	} {
		r, opp, n := c.from, Rating{R: 1500, RD: 80, Vol: StartVol}, 0
		for r.Provisional() {
			r, _ = Game(r, opp, float64(n%2))
			n++
		}
		if n < c.min || n > c.max {
			t.Errorf("%s: %d games to settle, want %d to %d", c.name, n, c.min, c.max)
		}
	}
}

func TestShown(t *testing.T) {
	for _, c := range []struct {
		r    Rating
		want string
	}{
		{New(1500), "1500?"},
		{Rating{R: 1623.6, RD: 110, Vol: StartVol}, "1624"},
		{Rating{R: 1623.4, RD: 110.5, Vol: StartVol}, "1623?"},
	} {
		if got := c.r.Shown(); got != c.want {
			t.Errorf("%+v shown %q, want %q", c.r, got, c.want)
		}
	}
}

// TestFromElo: an Elo number keeps its value with a wide deviation; none,
// or the start nobody moved from, is a newcomer's.
func TestFromElo(t *testing.T) {
	if got, want := FromElo(1620, 1500), (Rating{R: 1620, RD: CarryRD, Vol: StartVol}); got != want {
		t.Errorf("FromElo(1620) = %+v, want %+v", got, want)
	}
	for _, elo := range []float64{0, 1500} {
		if got := FromElo(elo, 1500); got != New(1500) {
			t.Errorf("FromElo(%v) = %+v, want a newcomer's", elo, got)
		}
	}
}

// TestApply: a change read from one record moves another the same way,
// in bounds.
func TestApply(t *testing.T) {
	before := Rating{R: 1600, RD: 200, Vol: StartVol}
	after, _ := Game(before, New(1500), 0)
	if got := before.Apply(before.Diff(after)); math.Abs(got.R-after.R) > 1e-9 || math.Abs(got.RD-after.RD) > 1e-9 {
		t.Errorf("Apply(Diff) = %+v, want %+v", got, after)
	}
	if got := (Rating{R: 1600, RD: 50, Vol: StartVol}).Apply(Change{RD: -100}); got.RD != MinRD {
		t.Errorf("deviation taken below its floor: %+v", got)
	}
}
