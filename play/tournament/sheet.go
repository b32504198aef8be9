package tournament

import (
	"cmp"
	"slices"

	"github.com/bashni/bashni/storage"
)

// A player's sheet in an arena: a win is worth 2, a draw 1, and after two
// wins in a row a player is on fire: each game then counts double until
// one is not won. The record keeps a player's latest tourSheetKeep games
// one by one (storage.TourPlayer.Results and Opps) and sums up the earlier
// ones (Carry), so that a long arena's record stays the same size.

// Result marks in storage.TourPlayer.Results.
const (
	markWin  = 'W'
	markDraw = 'D'
	markLoss = 'L'
)

// tourSheetKeep is how many of a player's latest games their sheet keeps
// one by one: more than a card or the final standings show of them.
const tourSheetKeep = 30

// sheetPoints returns the points of each result in order, starting with
// streak wins in a row, and the wins in a row it ends with.
func sheetPoints(results string, streak int) (points []int, end int) {
	points = make([]int, 0, len(results))
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
	return points, streak
}

// SheetPoints returns the points of each result in order and whether the
// player is on fire now (their last two games were won).
func SheetPoints(results string) (points []int, onFire bool) {
	points, streak := sheetPoints(results, 0)
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

// Sheet is a player's score: Points of each game kept one by one (the
// latest), Earlier games summed up before them, and the totals.
type Sheet struct {
	Points  []int
	Earlier int
	Total   int
	Wins    int
	Games   int
	OnFire  bool
}

// PlayerSheet scores a player's sheet, the games summed up included.
func PlayerSheet(p storage.TourPlayer) Sheet {
	points, streak := sheetPoints(p.Results, p.Carry.Streak)
	s := Sheet{Points: points, Earlier: p.Carry.Games, Total: p.Carry.Points, Wins: p.Carry.Wins,
		Games: p.Carry.Games + len(points), OnFire: streak >= 2}
	for i, pt := range points {
		s.Total += pt
		if p.Results[i] == markWin {
			s.Wins++
		}
	}
	return s
}

// addMark writes a game's result and opponent on p's sheet, summing up
// the oldest games beyond tourSheetKeep.
func addMark(p *storage.TourPlayer, mark rune, opp int64) {
	p.Results += string(mark)
	p.Opps = append(p.Opps, opp)
	for len(p.Results) > tourSheetKeep {
		points, streak := sheetPoints(p.Results[:1], p.Carry.Streak)
		p.Carry.Points += points[0]
		p.Carry.Games++
		p.Carry.Streak = streak
		if p.Results[0] == markWin {
			p.Carry.Wins++
		}
		p.Results = p.Results[1:]
	}
	if len(p.Opps) > len(p.Results) {
		p.Opps = p.Opps[len(p.Opps)-len(p.Results):]
	}
}

// Standing is one line of a tournament's standings.
type Standing struct {
	Rank    int
	Player  storage.TourPlayer
	Sheet   Sheet
	Points  int
	OnFire  bool
	Wins    int
	Playing bool // in a game now
}

// Standings ranks the players: most points first, then most wins, then
// who joined first. Equal points and wins share a rank.
func Standings(t *storage.Tournament) []Standing {
	out := make([]Standing, len(t.Players))
	for i, p := range t.Players {
		sh := PlayerSheet(p)
		out[i] = Standing{Player: p, Sheet: sh, Points: sh.Total, OnFire: sh.OnFire, Wins: sh.Wins, Playing: p.Game != ""}
	}
	slices.SortStableFunc(out, func(a, b Standing) int { return cmp.Or(b.Points-a.Points, b.Wins-a.Wins) })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Points == out[i-1].Points && out[i].Wins == out[i-1].Wins {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// markFor is a result's mark for the player whose win is win and loss
// loss; anything else (a draw) is a draw.
func markFor(result, win, loss string) rune {
	switch result {
	case win:
		return markWin
	case loss:
		return markLoss
	}
	return markDraw
}
