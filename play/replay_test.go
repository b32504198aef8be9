package play

import (
	"testing"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// The cache must give what a full replay gives, whatever the record does:
// grows, stays, is rewritten, or is changed by the caller.
func TestReplayCacheAgreesWithAFullReplay(t *testing.T) {
	c := newReplayCache(8)
	rec := func(moves ...string) *storage.Game {
		return &storage.Game{ID: "g", Start: rules.Start(rules.Bashni).String(), Moves: moves}
	}
	check := func(what string, r *storage.Game) *Game {
		t.Helper()
		got, err := c.load(r)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		want, err := load(r)
		if err != nil {
			t.Fatalf("%s: full replay: %v", what, err)
		}
		if got.Rules().Record() != want.Rules().Record() || got.Position() != want.Position() ||
			got.Rules().QuietPlies() != want.Rules().QuietPlies() {
			t.Fatalf("%s: cached %q, full replay %q", what, got.Rules().Record(), want.Rules().Record())
		}
		return got
	}

	check("first load", rec("c3-d4", "f6-e5"))
	g := check("two more moves", rec("c3-d4", "f6-e5", "d4:f6", "g7:e5"))
	// The caller plays on its copy; the cache must not see it.
	if _, err := g.rules.PlayText("g3-f4"); err != nil {
		t.Fatal(err)
	}
	check("the same record again", rec("c3-d4", "f6-e5", "d4:f6", "g7:e5"))
	check("a rewritten record", rec("c3-b4", "f6-g5"))
	check("a shorter record", rec("c3-b4"))
	check("another game's id", &storage.Game{ID: "h", Start: rules.Start(rules.Russian).String(), Variant: "russian", Moves: []string{"c3-d4"}})

	if _, err := c.load(rec("c3-b4", "f6-g5", "b4-b6")); err == nil {
		t.Error("a record with an illegal move loaded from the cache")
	}
}
