package play

import (
	"cmp"
	"slices"
	"time"

	"github.com/bashni/bashni/storage"
)

// The arena's pure part: scores, standings and pairing, from the stored
// record alone (no store, no clock of its own), as lichess and lidraughts
// run their arenas: a player is paired again as soon as a game ends, with
// a waiting player of close score who is not the one just played; a win
// is worth 2, a draw 1, and after two wins in a row a player is on fire:
// each game then counts double until one is not won.

// Result marks in storage.TourPlayer.Results.
const (
	markWin  = 'W'
	markDraw = 'D'
	markLoss = 'L'
)

// SheetPoints returns the points of each result in order and whether the
// player is on fire now (their last two games were won).
func SheetPoints(results string) (points []int, onFire bool) {
	points = make([]int, 0, len(results))
	streak := 0 // wins in a row before this game
	for _, r := range results {
		double := streak >= 2
		p := 0
		switch r {
		case markWin:
			p = 2
			streak++
		case markDraw:
			p = 1
			streak = 0
		default:
			streak = 0
		}
		if double {
			p *= 2
		}
		points = append(points, p)
	}
	return points, streak >= 2
}

// SheetTotal is the sum of SheetPoints.
func SheetTotal(results string) int {
	points, _ := SheetPoints(results)
	total := 0
	for _, p := range points {
		total += p
	}
	return total
}

// TourStanding is one line of a tournament's standings.
type TourStanding struct {
	Rank    int
	Player  storage.TourPlayer
	Points  int
	OnFire  bool
	Wins    int
	Playing bool // in a game now
}

// Standings ranks the players: most points first, then most wins, then
// who joined first. Equal points and wins share a rank.
func Standings(t *storage.Tournament) []TourStanding {
	out := make([]TourStanding, len(t.Players))
	for i, p := range t.Players {
		points, fire := SheetPoints(p.Results)
		s := TourStanding{Player: p, OnFire: fire, Playing: p.Game != ""}
		for j, pt := range points {
			s.Points += pt
			if p.Results[j] == markWin {
				s.Wins++
			}
		}
		out[i] = s
	}
	slices.SortStableFunc(out, func(a, b TourStanding) int { return cmp.Or(b.Points-a.Points, b.Wins-a.Wins) })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Points == out[i-1].Points && out[i].Wins == out[i-1].Wins {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// arenaPairs pairs the waiting players (not paused, not in a game): ranked
// by points, the longest waiting first among equals, each is paired with
// the nearest in that order still free who is not the opponent of their
// last game (either way round). A player left over waits for the next
// game to end. Each pair is (white, black) as indexes into t.Players:
// White goes to the one who had it less often, the higher ranked if
// equal.
func arenaPairs(t *storage.Tournament) [][2]int {
	var waiting []int
	for i, p := range t.Players {
		if p.Game == "" && !p.Paused {
			waiting = append(waiting, i)
		}
	}
	points := make(map[int]int, len(waiting))
	for _, i := range waiting {
		points[i] = SheetTotal(t.Players[i].Results)
	}
	slices.SortStableFunc(waiting, func(a, b int) int {
		pa, pb := t.Players[a], t.Players[b]
		return cmp.Or(points[b]-points[a], pa.FreeSince.Compare(pb.FreeSince))
	})
	// The one just played is not paired again while anyone else is in
	// the arena (waiting, or playing and soon free); two alone in it
	// would otherwise wait for each other until the end.
	others := 0
	for _, p := range t.Players {
		if !p.Paused {
			others++
		}
	}
	avoidLast := others > 2
	taken := make([]bool, len(waiting))
	var pairs [][2]int
	for x := range waiting {
		if taken[x] {
			continue
		}
		p := t.Players[waiting[x]]
		for y := x + 1; y < len(waiting); y++ {
			q := t.Players[waiting[y]]
			if taken[y] || avoidLast && (p.Last == q.UserID || q.Last == p.UserID) {
				continue
			}
			taken[x], taken[y] = true, true
			w, b := waiting[x], waiting[y]
			if q.Whites < p.Whites {
				w, b = b, w
			}
			pairs = append(pairs, [2]int{w, b})
			break
		}
	}
	return pairs
}

// tourGameState is what a tournament needs to know of one of its games.
type tourGameState struct {
	exists bool
	result string // "" while it goes on
	carded bool   // both players' cards are recorded
}

// tourStep is what one step of a tournament did, for the caller to act
// on after its write.
type tourStep struct {
	paired []storage.TourGame // new games: create them, post their cards
	repost []storage.TourGame // games whose cards went missing: post again
	card   bool               // edit the group's card now
	final  bool               // the tournament has just finished
}

// Timings of a tournament's steps.
const (
	// tourCardEvery is the least time between two edits of the group's
	// card: the group has 20 messages a minute for everything.
	tourCardEvery = 5 * time.Second
	// tourCardRefresh re-edits the card this often while it runs, for the
	// time left, even when nothing else changed.
	tourCardRefresh = time.Minute
	// tourRepostAfter is how long a new game may go without its cards
	// recorded before the clock posts them again (the process that
	// claimed them died).
	tourRepostAfter = 30 * time.Second
	// tourMaxReposts bounds the posts again: a player who blocked the bot
	// never gets a card, and their opponent must not get one every
	// tourRepostAfter until the flag falls.
	tourMaxReposts = 2
	// tourFinalRetry is how long the final standings are owed before the
	// clock shows them again (their writer died before recording them
	// shown; the outbox's mark keeps a second copy from going out).
	tourFinalRetry = 5 * time.Second
)

// arenaStep moves a tournament on at now, given the state of its games in
// progress: results are recorded, time is called, waiting players are
// paired (games named by newID), the end is declared once the last game
// is over, and the group's card is claimed when due.
func arenaStep(t *storage.Tournament, games map[string]tourGameState, now time.Time, newID func() string) tourStep {
	var st tourStep
	if t.Status == storage.TournamentFinished {
		if !t.FinalShown && !now.Before(t.FinalAt.Add(tourFinalRetry)) {
			t.FinalAt, st.final = now, true
		}
		return st
	}
	dirty := arenaResults(t, games, now, &st)
	if t.Status == storage.TournamentRunning && !now.Before(t.EndsAt) {
		t.Status = storage.TournamentEnding
		dirty = true
	}
	if t.Status == storage.TournamentRunning && arenaPairing(t, now, newID, &st) {
		dirty = true
	}
	if t.Status == storage.TournamentEnding && !slices.ContainsFunc(t.Games, func(g storage.TourGame) bool { return g.Result == "" }) {
		t.Status, t.FinalAt = storage.TournamentFinished, now
		st.final = true
		dirty = true
	}
	arenaCard(t, dirty, now, &st)
	return st
}

// arenaResults records the results of the tournament's games that ended,
// and lists for posting again the cards of games whose card was never
// recorded; it reports whether the standings changed.
func arenaResults(t *storage.Tournament, games map[string]tourGameState, now time.Time, st *tourStep) (changed bool) {
	for gi := range t.Games {
		tg := &t.Games[gi]
		if tg.Result != "" {
			continue
		}
		gs := games[tg.ID]
		if gs.result != "" {
			tg.Result = gs.result
			recordResult(t, tg, now)
			changed = true
			continue
		}
		if (!gs.exists || !gs.carded) && !now.Before(tg.Posted.Add(tourRepostAfter)) && tg.Reposts < tourMaxReposts {
			tg.Posted = now
			tg.Reposts++
			st.repost = append(st.repost, *tg)
		}
	}
	return changed
}

// arenaPairing pairs the waiting players (arenaPairs) into new games named
// by newID; it reports whether it paired anyone.
func arenaPairing(t *storage.Tournament, now time.Time, newID func() string, st *tourStep) (paired bool) {
	for _, pr := range arenaPairs(t) {
		w, b := &t.Players[pr[0]], &t.Players[pr[1]]
		tg := storage.TourGame{ID: newID(), White: w.UserID, Black: b.UserID, Posted: now}
		w.Game, b.Game = tg.ID, tg.ID
		w.Whites++
		t.Games = append(t.Games, tg)
		st.paired = append(st.paired, tg)
		paired = true
	}
	return paired
}

// arenaCard claims the group's card edit when it is due: the standings
// changed and the last edit is tourCardEvery old, the time left wants a
// refresh, or the final standings are to be shown.
func arenaCard(t *storage.Tournament, changed bool, now time.Time, st *tourStep) {
	if changed {
		t.CardDirty = true
	}
	due := t.CardDirty && !now.Before(t.CardAt.Add(tourCardEvery)) ||
		t.Status == storage.TournamentRunning && !now.Before(t.CardAt.Add(tourCardRefresh))
	if st.final || due {
		st.card = true
		t.CardAt, t.CardDirty = now, false
	}
}

// recordResult writes a finished game's result on its players' sheets;
// both come free to be paired again.
func recordResult(t *storage.Tournament, tg *storage.TourGame, now time.Time) {
	for i := range t.Players {
		p := &t.Players[i]
		var mark rune
		switch {
		case p.UserID == tg.White:
			mark = markFor(tg.Result, "1-0", "0-1")
			p.Last = tg.Black
		case p.UserID == tg.Black:
			mark = markFor(tg.Result, "0-1", "1-0")
			p.Last = tg.White
		default:
			continue
		}
		p.Results += string(mark)
		if p.Game == tg.ID {
			p.Game = ""
		}
		p.FreeSince = now
	}
}

func markFor(result, win, loss string) rune {
	switch result {
	case win:
		return markWin
	case loss:
		return markLoss
	}
	return markDraw
}
