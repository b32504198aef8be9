package tournament

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

// arenaPairs pairs the waiting players (not paused, not in a game): ranked
// by points, the longest waiting first among equals, each is paired with
// the nearest in that order still free who is not the opponent of their
// last game (either way round), ever: two left alone in the arena wait
// for a third rather than play each other again and again (two accounts
// would otherwise farm points and ratings off each other). A player left
// over waits for the next game to end. Each pair is (white, black) as indexes into t.Players:
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
		points[i] = PlayerSheet(t.Players[i]).Total
	}
	slices.SortStableFunc(waiting, func(a, b int) int {
		pa, pb := t.Players[a], t.Players[b]
		return cmp.Or(points[b]-points[a], pa.FreeSince.Compare(pb.FreeSince))
	})
	taken := make([]bool, len(waiting))
	var pairs [][2]int
	for x := range waiting {
		if taken[x] {
			continue
		}
		p := t.Players[waiting[x]]
		for y := x + 1; y < len(waiting); y++ {
			q := t.Players[waiting[y]]
			if taken[y] || p.Last == q.UserID || q.Last == p.UserID {
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
	over   bool
	result string // "1-0", "0-1", "1/2-1/2" once over
	carded bool   // both players' cards are recorded
	// aborted: over before both sides moved (tourAborted); it gives
	// nobody points. noShow is the player who let its clock run out
	// without moving: paused until they come back.
	aborted bool
	noShow  int64
}

// tourStep is what one step of a tournament did, for the caller to act
// on after its write.
type tourStep struct {
	paired []storage.TourGame // new games: create them, post their cards
	noShow []int64            // players paused for a game they never moved in
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
	// tourFinalMaxRefusals bounds the copies of the final standings
	// Telegram may refuse before the bot gives up on them.
	tourFinalMaxRefusals = 3
	// tourFinalMaxTries bounds the clock's copies of the final standings
	// under one receipt (a minute of them, tourFinalRetry apart): the
	// receipt's mark holds each back while the first is on its way, but a
	// first copy refused or lost where no process heard Telegram's answer
	// (sent by a process that took it over after a crash, whose Done is
	// gone) is never recorded either way, and would keep the group from
	// its next tournament for good. Past the bound it counts as refused.
	tourFinalMaxTries = 12
)

// arenaStep moves a tournament on at now, given the state of its games in
// progress: results are recorded, time is called, waiting players are
// paired (games named by newID), the end is declared once the last game
// is over, and the group's card is claimed when due.
func arenaStep(t *storage.Tournament, games map[string]tourGameState, now time.Time, newID func() string) tourStep {
	var st tourStep
	if t.Status == storage.TournamentFinished {
		if t.Listed() && !now.Before(t.FinalAt.Add(tourFinalRetry)) {
			t.FinalAt, st.final = now, true
			if t.FinalTries++; t.FinalTries > tourFinalMaxTries {
				finalRefused(t, now)
				st.final = !t.FinalGaveUp
			}
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
	if t.Status == storage.TournamentEnding && len(t.Games) == 0 {
		t.Status, t.FinalAt = storage.TournamentFinished, now
		st.final = true
		dirty = true
	}
	arenaCard(t, dirty, now, &st)
	return st
}

// arenaResults records the results of the tournament's games that ended
// (and drops them from the record: their players' sheets keep them), and
// lists for posting again the cards of games whose card was never
// recorded; it reports whether the standings changed.
func arenaResults(t *storage.Tournament, games map[string]tourGameState, now time.Time, st *tourStep) (changed bool) {
	for gi := range t.Games {
		tg := &t.Games[gi]
		if tg.Result != "" {
			continue // finished in a record written before games left it
		}
		gs := games[tg.ID]
		if gs.over {
			tg.Result = cmp.Or(gs.result, "*")
			if gs.noShow != 0 {
				st.noShow = append(st.noShow, gs.noShow)
			}
			recordResult(t, tg, gs, now)
			changed = true
			continue
		}
		if !gs.exists && tg.Reposts >= tourMaxReposts && !now.Before(tg.Posted.Add(tourRepostAfter)) {
			// Never made, however often it was posted again (its store
			// writes failed): nobody can play it, and kept it would keep
			// its players from pairing and the tournament from its end.
			// It counts for nobody, as a game nobody moved in.
			tg.Result = "*"
			recordResult(t, tg, tourGameState{over: true, aborted: true}, now)
			changed = true
			continue
		}
		if (!gs.exists || !gs.carded) && !now.Before(tg.Posted.Add(tourRepostAfter)) && tg.Reposts < tourMaxReposts {
			tg.Posted = now
			tg.Reposts++
			st.repost = append(st.repost, *tg)
		}
	}
	n := len(t.Games)
	t.Games = slices.DeleteFunc(t.Games, func(g storage.TourGame) bool { return g.Result != "" })
	return changed || len(t.Games) != n
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
// both come free to be paired again. An aborted game gives no points and
// breaks no streak; its no-show is paused until they come back.
func recordResult(t *storage.Tournament, tg *storage.TourGame, gs tourGameState, now time.Time) {
	if !gs.aborted {
		t.Played++
	}
	for i := range t.Players {
		p := &t.Players[i]
		var mark rune
		var opp int64
		switch {
		case p.UserID == tg.White:
			mark, opp = markFor(tg.Result, "1-0", "0-1"), tg.Black
		case p.UserID == tg.Black:
			mark, opp = markFor(tg.Result, "0-1", "1-0"), tg.White
		default:
			continue
		}
		p.Last = opp
		if p.Game == tg.ID {
			p.Game = ""
		}
		p.FreeSince = now
		switch {
		case !gs.aborted:
			addMark(p, mark, opp)
		case p.UserID == gs.noShow:
			p.Paused, p.NoShow = true, true
		}
	}
}
