package team

import (
	"cmp"
	"slices"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
)

// What the bot shows of a game by vote: whether it is one, the open
// vote and its tally, the votes closed so far and who voted.

// Is reports whether the chat plays g by vote.
func Is(g *play.Game) bool { return g.Team() != nil }

// chatsTurn reports whether game g by vote goes on with the chat to move.
func chatsTurn(g *play.Game) bool {
	if g.Team() == nil || !g.Active() {
		return false
	}
	_, p := g.ToMove()
	return p.AILevel == 0
}

// MoveVotes is one move of an open vote and its ballots so far.
type MoveVotes struct {
	Move  string // in notation, or ResignVote
	Votes int
}

// Tally is the open vote's count so far: most votes first, the move
// voted for first among equals (as the vote would close now); nil when no
// vote is open.
func Tally(g *play.Game) []MoveVotes {
	t := g.Team()
	if t == nil || !chatsTurn(g) || t.Ply != g.Ply() || SideChat(g) != g.ChatID() {
		return nil // in a game between two chats, a side's tally is its own
	}
	return TallyOf(t.Ballots)
}

// TallyOf counts ballots by move: most votes first, the move voted for
// first among equals.
func TallyOf(ballots []storage.Ballot) []MoveVotes {
	var out []MoveVotes
	for _, b := range ballots {
		i := slices.IndexFunc(out, func(m MoveVotes) bool { return m.Move == b.Move })
		if i < 0 {
			i = len(out)
			out = append(out, MoveVotes{Move: b.Move})
		}
		out[i].Votes++
	}
	slices.SortStableFunc(out, func(a, b MoveVotes) int { return b.Votes - a.Votes })
	return out
}

// OpenVote is the open vote of a game by vote as the bot shows it.
type OpenVote struct {
	Open     bool // the chat is to move
	Ballots  int
	ClosesAt time.Time // zero until the first ballot
	Window   time.Duration
}

// VoteOf returns the state of the open vote of g (zero for a game not
// played by vote).
func VoteOf(g *play.Game) OpenVote {
	t := g.Team()
	if t == nil {
		return OpenVote{}
	}
	// g as one chat's card shows it: in a game between two chats, the
	// vote is open on the card of the side to move.
	v := OpenVote{Open: chatsTurn(g) && SideChat(g) == g.ChatID(), Window: t.Window}
	if v.Open && t.Ply == g.Ply() {
		v.Ballots, v.ClosesAt = len(t.Ballots), t.ClosesAt
	}
	return v
}

// Turns returns the votes of g closed so far, oldest first (a copy): in a
// game between two chats, those of the chat of g's card, since a side's
// voters are its own business until the game ends.
func Turns(g *play.Game) []storage.TeamTurn {
	if g.Team() == nil {
		return nil
	}
	turns := g.Team().Clone().Turns
	if Sided(g) {
		turns = slices.DeleteFunc(turns, func(t storage.TeamTurn) bool { return t.Chat != g.ChatID() })
	}
	return turns
}

// Voter is one member's part in a game by vote: how often they voted and
// how often for the move the chat played.
type Voter struct {
	UserID int64
	Name   string
	Votes  int // turns voted on
	Chosen int // of those, votes for the move played
}

// Voters lists everyone who voted in g (in a game between two chats, in
// the chat of g's card): those whose votes were played
// most often first, then by votes cast, then by first vote.
func Voters(g *play.Game) []Voter {
	var out []Voter
	index := map[int64]int{}
	count := func(b storage.Ballot, chosen bool) {
		i, ok := index[b.UserID]
		if !ok {
			i = len(out)
			index[b.UserID] = i
			out = append(out, Voter{UserID: b.UserID})
		}
		out[i].Name = b.Name // the latest name they voted under
		out[i].Votes++
		if chosen {
			out[i].Chosen++
		}
	}
	for _, turn := range Turns(g) {
		for _, b := range turn.For {
			count(b, true)
		}
		for _, b := range turn.Others {
			count(b, false)
		}
	}
	slices.SortStableFunc(out, func(a, b Voter) int {
		return cmp.Or(b.Chosen-a.Chosen, b.Votes-a.Votes)
	})
	return out
}
