package tournament

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
)

func TestSheetPoints(t *testing.T) {
	for _, tc := range []struct {
		results string
		points  []int
		total   int
		fire    bool
	}{
		{"", []int{}, 0, false},
		{"W", []int{2}, 2, false},
		{"D", []int{1}, 1, false},
		{"L", []int{0}, 0, false},
		{"WW", []int{2, 2}, 4, true},
		// On fire after two wins: the third win counts double.
		{"WWW", []int{2, 2, 4}, 8, true},
		{"WWWW", []int{2, 2, 4, 4}, 12, true},
		// A draw on fire counts double too, and ends the streak.
		{"WWD", []int{2, 2, 2}, 6, false},
		{"WWDW", []int{2, 2, 2, 2}, 8, false},
		// A loss ends the streak; two wins start another.
		{"WWLWWW", []int{2, 2, 0, 2, 2, 4}, 12, true},
		{"WDW", []int{2, 1, 2}, 5, false},
		{"LLD", []int{0, 0, 1}, 1, false},
	} {
		t.Run(tc.results, func(t *testing.T) {
			points, fire := SheetPoints(tc.results)
			if !slices.Equal(points, tc.points) || fire != tc.fire {
				t.Errorf("SheetPoints(%q) = %v, fire %v; want %v, fire %v", tc.results, points, fire, tc.points, tc.fire)
			}
			if got := SheetTotal(tc.results); got != tc.total {
				t.Errorf("SheetTotal(%q) = %d, want %d", tc.results, got, tc.total)
			}
		})
	}
}

func TestStandings(t *testing.T) {
	tr := &storage.Tournament{Players: []storage.TourPlayer{
		{UserID: 1, Name: "Ann", Results: "WL"},  // 2
		{UserID: 2, Name: "Ben", Results: "WWW"}, // 8, on fire
		{UserID: 3, Name: "Cid", Results: "DD"},  // 2, no wins
		{UserID: 4, Name: "Dot", Results: "LW"},  // 2, as Ann
		{UserID: 5, Name: "Eve", Game: "g", Paused: true},
	}}
	got := Standings(tr)
	var line []string
	for _, s := range got {
		line = append(line, fmt.Sprintf("%d.%s:%d/%v/%v", s.Rank, s.Player.Name, s.Points, s.OnFire, s.Playing))
	}
	want := []string{"1.Ben:8/true/false", "2.Ann:2/false/false", "2.Dot:2/false/false", "4.Cid:2/false/false", "5.Eve:0/false/true"}
	if !slices.Equal(line, want) {
		t.Errorf("standings\n got %v\nwant %v", line, want)
	}
}

// t0 is the arena's "now" in these tests: arenaStep reads no clock but
// the one it is given, and it starts from the real present all the same.
var t0 = time.Now().UTC().Truncate(time.Second)

func TestArenaPairs(t *testing.T) {
	free := func(id int64, results string, min int) storage.TourPlayer {
		return storage.TourPlayer{UserID: id, Name: fmt.Sprint(id), Results: results, FreeSince: t0.Add(time.Duration(min) * time.Minute)}
	}
	for _, tc := range []struct {
		name    string
		players []storage.TourPlayer
		want    [][2]int64 // (white, black) by user id
	}{
		{"nobody", nil, nil},
		{"one waits alone", []storage.TourPlayer{free(1, "", 0)}, nil},
		{"two newcomers", []storage.TourPlayer{free(1, "", 0), free(2, "", 1)}, [][2]int64{{1, 2}}},
		{"close scores are paired", []storage.TourPlayer{free(1, "WW", 0), free(2, "", 0), free(3, "W", 0), free(4, "L", 0)},
			[][2]int64{{1, 3}, {2, 4}}},
		{"the one just played is not paired again while another will come free", func() []storage.TourPlayer {
			a, b, c := free(1, "W", 0), free(2, "L", 0), free(3, "", 0)
			a.Last, b.Last, c.Game = 2, 1, "g1"
			return []storage.TourPlayer{a, b, c}
		}(), nil},
		// Not twice in a row, ever: two alone wait for a third, or two
		// accounts would farm points off each other as fast as they resign.
		{"two alone in the arena wait for a third", func() []storage.TourPlayer {
			a, b, c := free(1, "W", 0), free(2, "L", 0), free(3, "", 0)
			a.Last, b.Last, c.Paused = 2, 1, true
			b.Whites = 1
			return []storage.TourPlayer{a, b, c}
		}(), nil},
		{"a third who comes back is paired with one of them", func() []storage.TourPlayer {
			a, b, c := free(1, "W", 0), free(2, "L", 0), free(3, "", 1)
			a.Last, b.Last = 2, 1
			return []storage.TourPlayer{a, b, c}
		}(), [][2]int64{{1, 3}}},
		{"the nearest other is taken instead", func() []storage.TourPlayer {
			a, b, c, d := free(1, "W", 0), free(2, "W", 0), free(3, "L", 0), free(4, "L", 0)
			a.Last, b.Last, c.Last, d.Last = 2, 1, 4, 3
			return []storage.TourPlayer{a, b, c, d}
		}(), [][2]int64{{1, 3}, {2, 4}}},
		{"paused and playing players wait", func() []storage.TourPlayer {
			a, b, c, d := free(1, "", 0), free(2, "", 0), free(3, "", 0), free(4, "", 0)
			b.Paused, c.Game = true, "g1"
			return []storage.TourPlayer{a, b, c, d}
		}(), [][2]int64{{1, 4}}},
		{"white to who had it less", func() []storage.TourPlayer {
			a, b := free(1, "W", 0), free(2, "W", 1)
			a.Whites = 1
			return []storage.TourPlayer{a, b}
		}(), [][2]int64{{2, 1}}},
		{"the longest waiting first among equals", []storage.TourPlayer{free(1, "", 5), free(2, "", 1), free(3, "", 3)},
			[][2]int64{{2, 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &storage.Tournament{Players: tc.players}
			var got [][2]int64
			for _, p := range arenaPairs(tr) {
				got = append(got, [2]int64{tr.Players[p[0]].UserID, tr.Players[p[1]].UserID})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("pairs %v, want %v", got, tc.want)
			}
		})
	}
}

// ids returns game ids g1, g2, ... in order.
func ids() func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("g%d", n) }
}

// A tournament from its start to its end, step by step: pairing at once,
// a result recorded and its players paired again (not with each other),
// a pause, the call of time (nobody paired after it, games in progress
// play on), the end once the last game is over; the card claimed at most
// every tourCardEvery, and a game whose cards went missing posted again.
func TestArenaStep(t *testing.T) {
	tr := &storage.Tournament{ID: "t", Status: storage.TournamentRunning, StartedAt: t0, EndsAt: t0.Add(30 * time.Minute), CardAt: t0}
	newID := ids()
	join := func(id int64, at time.Time) {
		tr.Players = append(tr.Players, storage.TourPlayer{UserID: id, Name: fmt.Sprint(id), FreeSince: at})
	}
	games := map[string]tourGameState{}
	step := func(at time.Time) tourStep {
		t.Helper()
		return arenaStep(tr, games, at, newID)
	}
	join(1, t0)
	if st := step(t0.Add(time.Second)); len(st.paired) != 0 || st.card {
		t.Fatalf("one player: %+v, want no pairing and no card yet (edited %v ago)", st, time.Second)
	}
	join(2, t0.Add(2*time.Second))
	join(3, t0.Add(3*time.Second))
	join(4, t0.Add(4*time.Second))
	st := step(t0.Add(5 * time.Second))
	if len(st.paired) != 2 || !st.card {
		t.Fatalf("four players: %+v, want two games and the card", st)
	}
	g1, g2 := st.paired[0], st.paired[1]
	if g1.White != 1 || g1.Black != 2 || g2.White != 3 || g2.Black != 4 {
		t.Errorf("pairs %+v %+v, want 1-2 and 3-4 (the longest waiting first)", g1, g2)
	}
	for _, id := range []string{g1.ID, g2.ID} {
		games[id] = tourGameState{exists: true, carded: true}
	}

	// 1 beats 2: both free, but not paired with each other; nothing else
	// to pair. The card was edited a second ago: not yet.
	games[g1.ID] = tourGameState{exists: true, over: true, result: "1-0"}
	st = step(t0.Add(6 * time.Second))
	if len(st.paired) != 0 || st.card {
		t.Fatalf("after 1-2: %+v, want no pairing (only 1 and 2 wait) and no card yet", st)
	}
	if tr.Players[0].Results != "W" || tr.Players[1].Results != "L" || tr.Players[0].Game != "" {
		t.Fatalf("results not recorded: %+v", tr.Players)
	}
	// 3 and 4 draw: the four wait, 1 and 3 (most points) meet, 2 and 4.
	games[g2.ID] = tourGameState{exists: true, over: true, result: "1/2-1/2"}
	st = step(t0.Add(11 * time.Second))
	if len(st.paired) != 2 || !st.card {
		t.Fatalf("after 3-4: %+v, want two games and the card", st)
	}
	pairs := fmt.Sprint(st.paired[0].White, st.paired[0].Black, st.paired[1].White, st.paired[1].Black)
	if pairs != "1 3 4 2" {
		t.Errorf("second round %s, want 1 3 4 2 (1 and 3 at the top; White to who had it less, else the higher ranked)", pairs)
	}
	g3, g4 := st.paired[0], st.paired[1]
	games[g3.ID] = tourGameState{exists: true, carded: true}
	games[g4.ID] = tourGameState{exists: false} // its creator died

	// 4 pauses; the card refreshes for the time left; g4 is posted again.
	tr.Players[3].Paused = true
	st = step(t0.Add(time.Minute))
	if len(st.repost) != 1 || st.repost[0].ID != g4.ID {
		t.Errorf("repost %+v, want %s", st.repost, g4.ID)
	}
	// Posted again at most tourMaxReposts times, each after tourRepostAfter.
	if st := step(t0.Add(time.Minute + time.Second)); len(st.repost) != 0 {
		t.Errorf("posted again a second after the last: %+v", st.repost)
	}
	if st := step(t0.Add(time.Minute + tourRepostAfter)); len(st.repost) != 1 {
		t.Errorf("not posted again after %v: %+v", tourRepostAfter, st.repost)
	}
	if st := step(t0.Add(time.Minute + 2*tourRepostAfter)); len(st.repost) != 0 {
		t.Errorf("posted again a third time: %+v", st.repost)
	}
	games[g4.ID] = tourGameState{exists: true, over: true, result: "0-1"} // 2 wins
	games[g3.ID] = tourGameState{exists: true, over: true, result: "1-0"} // 1 wins: two in a row
	st = step(t0.Add(2 * time.Minute))
	if len(st.paired) != 1 || st.paired[0].White != 2 || st.paired[0].Black != 1 {
		t.Fatalf("paired %+v, want 2-1 (1 leads, 2 is nearest; 4 is paused; 3 waits)", st.paired)
	}
	if _, fire := SheetPoints(tr.Players[0].Results); !fire {
		t.Errorf("1 won twice in a row (%s) and is not on fire", tr.Players[0].Results)
	}
	g5 := st.paired[0]

	// Time is up: nobody is paired any more, 3 and a resumed 4 wait, g5
	// plays on; the tournament ends with it.
	tr.Players[3].Paused = false
	st = step(tr.EndsAt)
	if tr.Status != storage.TournamentEnding || len(st.paired) != 0 || st.final {
		t.Fatalf("at the end: status %s, %+v; want ending, no pairing, not final", tr.Status, st)
	}
	games[g5.ID] = tourGameState{exists: true, over: true, result: "0-1"} // 1 wins on fire: 4 points
	st = step(tr.EndsAt.Add(time.Second))
	if tr.Status != storage.TournamentFinished || !st.final || !st.card {
		t.Fatalf("after the last game: status %s, %+v; want finished, final, the card", tr.Status, st)
	}
	top := Standings(tr)[0]
	if top.Player.UserID != 1 || top.Points != 8 || top.Player.Results != "WWW" {
		t.Errorf("winner %+v, want 1 with WWW = 2+2+4 = 8", top)
	}
	// The final standings are owed until recorded shown: shown again
	// after tourFinalRetry, then no more.
	if st := step(tr.EndsAt.Add(time.Second + tourFinalRetry/2)); st.final || st.card {
		t.Errorf("the final shown again at once: %+v", st)
	}
	if st := step(tr.EndsAt.Add(time.Second + tourFinalRetry)); !st.final || st.card || len(st.paired) != 0 {
		t.Errorf("the final owed after %v: %+v, want it shown again (and nothing else)", tourFinalRetry, st)
	}
	tr.FinalShown = true
	if st := step(tr.EndsAt.Add(time.Hour)); st.card || st.final || len(st.paired) != 0 {
		t.Errorf("a finished tournament stepped again: %+v", st)
	}
}

// A game that ends before both sides have moved is aborted: nobody gets
// points or loses a streak, and the player who let it run out without
// moving is paused (not paired again until they come back), as lichess's
// arenas do; the one who waited for them is paired with someone else.
func TestArenaNoShow(t *testing.T) {
	tr := &storage.Tournament{ID: "t", Status: storage.TournamentRunning, StartedAt: t0, EndsAt: t0.Add(time.Hour), CardAt: t0}
	for i := int64(1); i <= 4; i++ {
		tr.Players = append(tr.Players, storage.TourPlayer{UserID: i, Name: fmt.Sprint(i), Results: "WW", FreeSince: t0.Add(time.Duration(i) * time.Second)})
	}
	newID := ids()
	games := map[string]tourGameState{}
	st := arenaStep(tr, games, t0.Add(5*time.Second), newID)
	if len(st.paired) != 2 {
		t.Fatalf("paired %+v, want two games", st.paired)
	}
	// 1 (White) never moves and loses on time; 3 and 4 draw by agreement
	// before either moves: aborted too, but nobody is paused.
	games[st.paired[0].ID] = tourGameState{exists: true, over: true, result: "0-1", aborted: true, noShow: 1}
	games[st.paired[1].ID] = tourGameState{exists: true, over: true, result: "1/2-1/2", aborted: true}
	st = arenaStep(tr, games, t0.Add(time.Minute), newID)
	if !slices.Equal(st.noShow, []int64{1}) {
		t.Errorf("no-shows %v, want [1]", st.noShow)
	}
	for _, p := range tr.Players {
		sh := PlayerSheet(p)
		if p.Results != "WW" || sh.Total != 4 || !sh.OnFire {
			t.Errorf("player %d after an aborted game: %q, %+v; want WW, 4 points, still on fire", p.UserID, p.Results, sh)
		}
		if paused := p.UserID == 1; p.Paused != paused || p.NoShow != paused {
			t.Errorf("player %d: paused %v, no-show %v; want %v", p.UserID, p.Paused, p.NoShow, paused)
		}
	}
	if tr.Played != 0 || len(tr.Games) != len(st.paired) {
		t.Errorf("played %d, games kept %+v; want none counted, only the new ones kept", tr.Played, tr.Games)
	}
	// 2 meets 3 or 4 (not 1, paused); the other of those waits.
	if len(st.paired) != 1 || st.paired[0].White == 1 || st.paired[0].Black == 1 {
		t.Errorf("paired %+v, want one game without the no-show", st.paired)
	}
}

// A player's sheet keeps their latest games one by one and sums up the
// rest, scoring exactly as the whole sheet would (streaks across the cut).
func TestSheetCarry(t *testing.T) {
	results := strings.Repeat("WWWDLWW", 20)
	var p storage.TourPlayer
	for i, r := range results {
		addMark(&p, r, int64(i))
	}
	sh := PlayerSheet(p)
	wantPoints, wantFire := SheetPoints(results)
	total := 0
	for _, x := range wantPoints {
		total += x
	}
	if sh.Total != total || sh.OnFire != wantFire || sh.Games != len(results) || sh.Wins != strings.Count(results, "W") {
		t.Errorf("sheet %+v, want total %d, fire %v, %d games, %d wins", sh, total, wantFire, len(results), strings.Count(results, "W"))
	}
	if len(p.Results) != tourSheetKeep || len(p.Opps) != tourSheetKeep || p.Opps[0] != int64(len(results)-tourSheetKeep) {
		t.Errorf("kept %d results and %d opponents (first %d), want the last %d", len(p.Results), len(p.Opps), p.Opps[0], tourSheetKeep)
	}
	if !slices.Equal(sh.Points, wantPoints[len(wantPoints)-tourSheetKeep:]) {
		t.Errorf("kept points %v, want %v", sh.Points, wantPoints[len(wantPoints)-tourSheetKeep:])
	}
}

// A game the arena paired that never came to exist (its creation failed,
// and each post again failed too) is dropped once its last post again is
// tourRepostAfter old: it counts for nobody, its players come free, and a
// tournament whose time is up ends rather than waiting for it for good
// (issue 38: /tournament then said one already ran, forever).
func TestArenaGameNeverMadeIsDropped(t *testing.T) {
	tr := &storage.Tournament{ID: "t", Status: storage.TournamentRunning, StartedAt: t0, EndsAt: t0.Add(time.Minute), CardAt: t0}
	for i := int64(1); i <= 2; i++ {
		tr.Players = append(tr.Players, storage.TourPlayer{UserID: i, Name: fmt.Sprint(i), Results: "W", FreeSince: t0})
	}
	newID := ids()
	games := map[string]tourGameState{} // no game is ever made
	now := t0.Add(time.Second)
	st := arenaStep(tr, games, now, newID)
	if len(st.paired) != 1 {
		t.Fatalf("paired %+v, want one game", st.paired)
	}
	for range tourMaxReposts {
		now = now.Add(tourRepostAfter)
		if st := arenaStep(tr, games, now, newID); len(st.repost) != 1 {
			t.Fatalf("at %v: %+v, want the game posted again", now.Sub(t0), st)
		}
	}
	now = now.Add(tourRepostAfter)
	st = arenaStep(tr, games, now, newID)
	if tr.Status != storage.TournamentFinished || !st.final || len(tr.Games) != 0 || tr.Played != 0 {
		t.Fatalf("after the last post again: %s, final %v, games %+v, played %d; want it finished, the game dropped uncounted",
			tr.Status, st.final, tr.Games, tr.Played)
	}
	for _, p := range tr.Players {
		if p.Game != "" || p.Results != "W" || p.Paused {
			t.Errorf("player %d: %+v; want free, their sheet as it was, not paused", p.UserID, p)
		}
	}
}

// Final standings nobody ever records shown or refused (a copy refused,
// or lost, in a process that took it over after a crash: its Done is gone)
// are owed again under a new receipt once tourFinalMaxTries copies were
// held back by the old one's mark, and given up after
// tourFinalMaxRefusals such rounds: the group is never kept from its next
// tournament for good (issue 38).
func TestArenaFinalNobodyHeardEnds(t *testing.T) {
	tr := &storage.Tournament{ID: "t", Status: storage.TournamentFinished, StartedAt: t0, EndsAt: t0.Add(time.Minute), FinalAt: t0, Receipt: -5}
	now := t0
	receipts := 0
	for i := 0; tr.Listed(); i++ {
		if i > (tourFinalMaxTries+1)*(tourFinalMaxRefusals+1) {
			t.Fatalf("still owed after %d copies: %+v", i, tr)
		}
		now = now.Add(tourFinalRetry)
		st := arenaStep(tr, nil, now, ids())
		if tr.Receipt == 0 {
			receipts++
			tr.Receipt = int64(-10 - receipts) // moveTourOn draws a new one
		}
		if st.final != tr.Listed() {
			t.Fatalf("copy %d: final %v while listed %v", i, st.final, tr.Listed())
		}
	}
	if !tr.FinalGaveUp || tr.FinalRefused != tourFinalMaxRefusals || receipts != tourFinalMaxRefusals {
		t.Errorf("%+v after %d new receipts; want given up after %d", tr, receipts, tourFinalMaxRefusals)
	}
}
