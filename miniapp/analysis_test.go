package miniapp

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/review"
	"github.com/bashni/bashni/rules"
)

// blunderAt is the ply of plantedGame's blunder: Black's (Bob's) fifth move.
const blunderAt = 9

// plantedGame is testkit.PlantedBlunder's 24-ply game: its start, its
// moves and the blunder.
func plantedGame(t testing.TB) (start rules.Position, moves []string, blunder rules.Move) {
	g, blunder := testkit.PlantedBlunder(t, 24, blunderAt)
	for _, m := range g.Moves() {
		moves = append(moves, m.String())
	}
	return g.StartPosition(), moves, blunder
}

// plantedSpec is the planted game finished (Bob resigned), reviewed by
// an engine pool at a small fixed depth per position.
func plantedSpec(t testing.TB) (gameSpec, rules.Move) {
	start, moves, blunder := plantedGame(t)
	return gameSpec{start: start.String(), moves: moves, result: "1-0", reason: "resignation",
		thinker: play.NewEnginePool(1, 4, ai.Limits{Depth: 6})}, blunder
}

func TestAnalysisThroughTheAPI(t *testing.T) {
	spec, blunder := plantedSpec(t)
	h := newHarnessWith(t, spec, nil)
	r := h.reps[0]
	path := "/api/games/" + h.gameID + "/analysis"

	u := User{ID: h.alice.ID, FirstName: "Alice"}
	for name, auth := range map[string]string{"none": "", "forged": SignUser("999:not-the-token", u, h.gameID, time.Now())} {
		for _, method := range []string{"GET", "POST"} {
			if code := h.call(r, method, path, auth, "", nil); code != http.StatusUnauthorized {
				t.Errorf("%s %s with %s initData: %d; want 401", method, path, name, code)
			}
		}
	}
	if code := h.call(r, "GET", path, h.initData(h.bob), "", nil); code != http.StatusNoContent {
		t.Errorf("GET before any analysis: %d; want 204", code)
	}

	var an analysis
	if code := h.call(r, "POST", path, h.initData(h.alice), "", &an); code != http.StatusOK {
		t.Fatalf("POST: %d", code)
	}
	n := len(spec.moves)
	if len(an.Positions) != n+1 || len(an.Scores) != n+1 || len(an.Moves) != n {
		t.Fatalf("%d positions, %d scores, %d moves for a game of %d moves", len(an.Positions), len(an.Scores), len(an.Moves), n)
	}
	if an.Result != "1-0" || !strings.Contains(an.Status, "Alice") || an.Cap != ai.ReviewCap {
		t.Errorf("result %q, status %q, cap %d", an.Result, an.Status, an.Cap)
	}
	// The positions are the game's, ply by ply.
	p := rules.MustParsePosition(spec.start)
	for i, text := range spec.moves {
		if an.Positions[i] != p.String() {
			t.Fatalf("position %d: %s; want %s", i, an.Positions[i], p)
		}
		m, err := rules.ParseMove(&p, text)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(m)
		if got := an.Moves[i]; got.Ply != i || got.Move.Text != text || got.Before != an.Scores[i] || got.After != an.Scores[i+1] {
			t.Errorf("move %d: %+v; want %s between scores %d and %d", i, got, text, an.Scores[i], an.Scores[i+1])
		}
	}
	if an.Positions[n] != p.String() {
		t.Errorf("last position %s; want %s", an.Positions[n], p)
	}
	// The planted blunder: Bob's, among the biggest mistakes (the engine
	// on both sides at depth 4 makes others a deeper look finds), with the
	// better move.
	found := -1
	for i, m := range an.Mistakes {
		if m.Ply == blunderAt {
			found = i
		}
	}
	if found < 0 {
		t.Fatalf("mistakes %+v; want the blunder at ply %d among them (scores %v)", an.Mistakes, blunderAt, an.Scores)
	}
	b := an.Moves[blunderAt]
	if b.Move.Text != blunder.String() || b.Mover != "b" || b.Loss < 100 || b.Best == nil || b.Best.Text == b.Move.Text || len(b.Best.Path) < 2 {
		t.Errorf("the blunder: %+v (best %+v); want %s by Black losing a man or more, with a better move", b, b.Best, blunder)
	}
	if want := b.Number + " " + blunder.String() + "?"; !strings.HasPrefix(an.Mistakes[found].Text, want) || !strings.Contains(an.Mistakes[found].Text, b.Best.Text) {
		t.Errorf("mistake line %q; want %q… with %s", an.Mistakes[found].Text, want, b.Best.Text)
	}
	for _, m := range an.Moves {
		if (m.Best != nil) != (m.Loss >= review.MistakeThreshold) {
			t.Errorf("move %d: loss %d, best %+v: a better move goes with a mistake only", m.Ply, m.Loss, m.Best)
		}
	}

	// Kept: a GET now has it, in the asker's language.
	var again analysis
	if code := h.call(r, "GET", path, h.initData(h.bob), "", &again); code != http.StatusOK || len(again.Mistakes) != len(an.Mistakes) || again.Mistakes[found].Ply != blunderAt {
		t.Fatalf("GET after the analysis: %d %+v; want 200 with the same mistakes", code, again.Mistakes)
	}
	if !strings.Contains(again.Mistakes[found].Text, "лучше") {
		t.Errorf("Bob reads Russian; the mistake says %q", again.Mistakes[found].Text)
	}

	// A game still being played: a clear refusal.
	g, err := h.newGame(gameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	var eb errorBody
	for _, method := range []string{"GET", "POST"} {
		eb = errorBody{}
		if code := h.call(r, method, "/api/games/"+g.ID()+"/analysis", h.initData(h.alice), "", &eb); code != http.StatusConflict || !strings.Contains(eb.Error, "once the game is over") {
			t.Errorf("%s analysis of a game in progress: %d %q; want 409 saying it comes once the game is over", method, code, eb.Error)
		}
	}
	if code := h.call(r, "POST", "/api/games/nosuchgame/analysis", h.initData(h.alice), "", &eb); code != http.StatusNotFound {
		t.Errorf("analysis of no game: %d; want 404", code)
	}
}

// gatedReviewer reviews a game only once let (release closed); it counts
// the reviews asked of it.
type gatedReviewer struct {
	calls   atomic.Int32
	started chan struct{} // one value per review begun, if not nil
	release chan struct{}
}

func (r *gatedReviewer) Think(_ context.Context, g *rules.Game, _ int) (rules.Move, error) {
	return g.Legal()[0], nil
}

func (r *gatedReviewer) Review(ctx context.Context, g *rules.Game) (ai.Review, error) {
	r.calls.Add(1)
	if r.started != nil {
		r.started <- struct{}{}
	}
	select {
	case <-r.release:
	case <-ctx.Done():
		return ai.Review{}, ctx.Err()
	}
	rv := ai.Review{Scores: make([]int, g.Ply()+1)}
	mover := rules.White
	if start := g.StartPosition(); start.SideToMove() == rules.Black {
		mover = rules.Black
	}
	for i, m := range g.Moves() {
		rv.Moves = append(rv.Moves, ai.MoveReview{Ply: i, Move: m, Mover: mover, Best: m})
		mover = mover.Opponent()
	}
	return rv, nil
}

// An analysis longer than a request waits: 202, asked again meanwhile
// (by anyone) still one review, and once done 200.
func TestAnalysisPendingThenDone(t *testing.T) {
	rv := &gatedReviewer{started: make(chan struct{}, 4), release: make(chan struct{})}
	h := newHarnessWith(t, gameSpec{start: rules.Start(rules.Bashni).String(), moves: []string{"c3-d4", "f6-e5", "d4:f6"},
		result: "1-0", reason: "resignation", thinker: rv, analysisWait: time.Millisecond}, nil)
	r := h.reps[0]
	path := "/api/games/" + h.gameID + "/analysis"
	var p pending
	if code := h.call(r, "POST", path, h.initData(h.alice), "", &p); code != http.StatusAccepted || !p.Pending || p.Text == "" {
		t.Fatalf("POST while the review runs: %d %+v; want 202 pending", code, p)
	}
	<-rv.started
	if code := h.call(r, "GET", path, h.initData(h.bob), "", &p); code != http.StatusAccepted || !strings.Contains(p.Text, "Анализ") {
		t.Errorf("GET while the review runs: %d %+v; want 202 in Russian for Bob", code, p)
	}
	if code := h.call(r, "POST", path, h.initData(h.bob), "", &p); code != http.StatusAccepted {
		t.Errorf("a second POST while the review runs: %d; want 202", code)
	}
	close(rv.release)
	// Wait for the end as the chat's Analyse button does: the service's
	// Analyse joins the review. The page's next POST then finds it kept.
	if _, err := r.reviews.Analyse(h.ctx, h.gameID, h.alice.ID); err != nil {
		t.Fatal(err)
	}
	var an analysis
	if code := h.call(r, "POST", path, h.initData(h.alice), "", &an); code != http.StatusOK || len(an.Moves) != 3 {
		t.Fatalf("POST after the review: %d, %d moves", code, len(an.Moves))
	}
	if n := rv.calls.Load(); n != 1 {
		t.Errorf("%d reviews; want 1", n)
	}
}

// The game id is the analysis endpoints' one parameter: any id gets a
// clear answer, never a 5xx, and only the real game's is analysed.
func FuzzAnalysisID(f *testing.F) {
	for _, s := range []string{"", "x", "nosuchgame", "../../etc/passwd", "%00", "ä", strings.Repeat("a", 300), "custom1/analysis", "a b"} {
		f.Add(s)
	}
	rv := &gatedReviewer{release: make(chan struct{})}
	close(rv.release)
	h := newHarnessWith(f, gameSpec{start: rules.Start(rules.Bashni).String(), moves: []string{"c3-d4"},
		result: "0-1", reason: "resignation", thinker: rv}, nil)
	f.Add(h.gameID)
	r := h.reps[0]
	f.Fuzz(func(t *testing.T, id string) {
		h.t = t
		for _, method := range []string{"GET", "POST"} {
			code := h.call(r, method, "/api/games/"+url.PathEscape(id)+"/analysis", h.initData(h.alice), "", nil)
			switch {
			case id == h.gameID && (code == http.StatusOK || code == http.StatusNoContent):
			case id != h.gameID && (code == http.StatusNotFound || code == http.StatusBadRequest || code == http.StatusMethodNotAllowed):
			default:
				t.Fatalf("%s analysis of %q: %d", method, id, code)
			}
		}
	})
}
