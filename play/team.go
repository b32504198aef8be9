package play

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// A team game: the chat plays one side against the AI, and each of its
// moves is chosen by vote. Every member may vote once a turn, by the move
// picker or a typed move; the vote closes a Window after its first ballot,
// or at once when everyone who voted on the previous turn has voted again;
// the move with most votes is played, a tie going to the move voted for
// first. The vote lives in the game's record (storage.TeamGame), so any
// replica takes any ballot and the clock's Tick closes a vote whose time
// is up, exactly once.

// DefaultVoteWindow is how long a team vote stays open after its first
// ballot unless the request says otherwise.
const DefaultVoteWindow = 60 * time.Second

// teamQuietWindow closes the first turn's vote this long after its latest
// ballot (within the window): on the first turn nobody's habit is known
// (there is no last turn to count on), and a group whose members have all
// voted should not wait the full minute. A member who votes within it
// keeps it open for the next; one who is later votes on the next turn,
// and from then on the vote waits for them (everyoneVoted).
const teamQuietWindow = 15 * time.Second

// ResignVote is the ballot to resign the chat's game: a majority of it
// (as of any move) ends the game, and so does the starter's alone.
const ResignVote = "resign"

// TeamGameRequest starts a game the chat plays against the AI by vote.
type TeamGameRequest struct {
	ChatID   int64
	ChatName string // how the chat's side is named on the card
	Level    int
	Color    string // the chat's colour: white (default), black or random
	Variant  rules.Variant
	Lang     string
	By       int64         // the member who starts it (may end it alone)
	Window   time.Duration // 0 means DefaultVoteWindow
	// Poll votes each turn in a native Telegram poll of the engine's
	// shortlist (teampoll.go) instead of by the card's buttons.
	Poll bool
}

// NewTeamGame starts a team game. If the AI has White, call PlayAI next.
func (s *Service) NewTeamGame(ctx context.Context, r TeamGameRequest) (*Game, error) {
	window := cmp.Or(r.Window, DefaultVoteWindow)
	if window < 10*time.Second || window > time.Hour {
		return nil, fmt.Errorf("%w: %v", ErrBadWindow, window)
	}
	if r.Level < 1 || r.Level > s.cfg.MaxLevel {
		return nil, fmt.Errorf("%w: %d (1-%d)", ErrBadLevel, r.Level, s.cfg.MaxLevel)
	}
	chat := storage.Player{Name: r.ChatName}
	bot := storage.Player{Name: AIName(r.Level), AILevel: r.Level}
	white, black := chat, bot
	switch r.Color {
	case ColorBlack:
		white, black = bot, chat
	case ColorWhite, "":
	case ColorRandom:
		if rand.IntN(2) == 0 {
			white, black = bot, chat
		}
	default:
		return nil, fmt.Errorf("%w: %q", ErrBadColour, r.Color)
	}
	return s.newGame(ctx, newGameSpec{variant: r.Variant, white: white, black: black, chatID: r.ChatID, lang: s.groupLang(ctx, r.ChatID, r.Lang),
		team: &storage.TeamGame{Window: window, ByPoll: r.Poll, StartedBy: r.By}})
}

// VoteOutcome is what a ballot did: the move voted for and its votes so
// far, and, when the ballot closed the vote, the move the chat played.
type VoteOutcome struct {
	Game    *Game
	Move    rules.Move // the move this ballot is for
	Votes   int        // ballots for that move, this one included
	Ballots int        // all ballots on this turn
	// Closed is set when this ballot closed the vote (everyone who voted
	// last time has voted): the chat's move was played.
	Closed *Outcome
	// Retracted is set when a member withdrew their poll answer (Move
	// and Votes are then zero).
	Retracted bool
}

// Vote casts voter's ballot for the move text (in notation) on the chat's
// turn in team game id. ply is the board version the voter saw (AnyPly for
// a typed move). A ballot on a turn that is over is ErrVoteClosed, a
// second ballot ErrAlreadyVoted, an illegal move the rules' *MoveError;
// none of them changes anything.
func (s *Service) Vote(ctx context.Context, id string, voter storage.Player, ply int, text string) (*VoteOutcome, error) {
	var out VoteOutcome
	var closed *Outcome
	g, err := s.updateContended(ctx, id, func(g *Game) error {
		out, closed = VoteOutcome{}, nil
		if err := openVote(g, ply); err != nil {
			return err
		}
		if slices.ContainsFunc(g.rec.Team.Ballots, func(b storage.Ballot) bool { return b.UserID == voter.UserID }) {
			return ErrAlreadyVoted
		}
		move := ResignVote
		if text != ResignVote {
			p := g.Position()
			m, err := rules.ParseMove(&p, text)
			if err != nil {
				return err
			}
			move = m.String()
		}
		var err error
		closed, err = s.cast(g, storage.Ballot{UserID: voter.UserID, Name: voter.Name, Move: move}, &out)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.voted(ctx, g, &out, closed), nil
}

// openVote checks that team game g takes ballots on board version ply
// (AnyPly: whatever is on the board) and starts the vote's ballots afresh
// on a new board.
func openVote(g *Game, ply int) error {
	t := g.rec.Team
	if t == nil {
		return ErrNotTeamGame
	}
	if !g.rec.Active() {
		return ErrGameOver
	}
	if !g.isTeamTurn() || (ply != AnyPly && ply != g.Ply()) {
		return ErrVoteClosed
	}
	if t.Ply != g.Ply() {
		t.Ply, t.Ballots, t.ClosesAt = g.Ply(), nil, timeZero
	}
	return nil
}

// cast adds a ballot, checked against g's board, starts the vote's time
// with the first, fills out, and closes the vote when everyone has voted.
func (s *Service) cast(g *Game, b storage.Ballot, out *VoteOutcome) (*Outcome, error) {
	t := g.rec.Team
	t.Ballots = append(t.Ballots, b)
	now := s.now()
	if t.ClosesAt.IsZero() {
		t.OpenedAt, t.ClosesAt = now, now.Add(t.Window)
	}
	if len(t.Turns) == 0 {
		t.ClosesAt = t.OpenedAt.Add(t.Window)
		if quiet := now.Add(teamQuietWindow); quiet.Before(t.ClosesAt) {
			t.ClosesAt = quiet
		}
	}
	out.Ballots = len(t.Ballots)
	p := g.Position()
	out.Move, _ = rules.ParseMove(&p, b.Move)
	for _, o := range t.Ballots {
		if o.Move == b.Move {
			out.Votes++
		}
	}
	if everyoneVoted(t) || b.Move == ResignVote && b.UserID == t.StartedBy && t.StartedBy != 0 {
		return s.closeVote(g)
	}
	return nil, nil
}

// voted completes a ballot's outcome once it is stored.
func (s *Service) voted(ctx context.Context, g *Game, out *VoteOutcome, closed *Outcome) *VoteOutcome {
	out.Game = g
	if closed != nil {
		closed.Game = g
		closed.Ended = !g.rec.Active()
		out.Closed = closed
		if closed.Ended {
			s.finished(ctx, g)
		}
	}
	return out
}

// updateContended is update for writes many members make to one game at
// once, all of which should land (ballots, unlike moves, do not exclude
// each other): it tries again a few times when update ran out of attempts.
// Every attempt lost is a write someone else won, so this bounds the wait.
func (s *Service) updateContended(ctx context.Context, id string, decide func(g *Game) error) (*Game, error) {
	for range 3 {
		g, err := s.update(ctx, id, decide)
		if !errors.Is(err, ErrBusy) {
			return g, err
		}
	}
	return s.update(ctx, id, decide)
}

// everyoneVoted reports whether every member who voted on the chat's last
// turn has voted on this one: then nobody is left to wait for. On the first
// turn there is no one to count on, and the vote runs its time.
func everyoneVoted(t *storage.TeamGame) bool {
	if len(t.Turns) == 0 {
		return false
	}
	last := t.Turns[len(t.Turns)-1]
	for _, r := range slices.Concat(last.For, last.Others) {
		if !slices.ContainsFunc(t.Ballots, func(b storage.Ballot) bool { return b.UserID == r.UserID }) {
			return false
		}
	}
	return true
}

// closeVote plays the move the chat voted for and files the vote among the
// closed ones. The ballots were each checked against this board.
func (s *Service) closeVote(g *Game) (*Outcome, error) {
	t := g.rec.Team
	chat, _ := g.ToMove()
	move := tally(t.Ballots)
	if last := t.Ballots[len(t.Ballots)-1]; last.Move == ResignVote && last.UserID == t.StartedBy && t.StartedBy != 0 {
		move = ResignVote // the starter ends the game alone
	}
	var m rules.Move
	var err error
	if move == ResignVote {
		err = g.rules.Resign(chat)
	} else {
		m, err = g.rules.PlayText(move)
	}
	if err != nil {
		return nil, fmt.Errorf("play: game %s: the voted move %s: %w", g.rec.ID, move, err)
	}
	turn := storage.TeamTurn{Ply: t.Ply, Move: move}
	for _, b := range t.Ballots {
		if b.Move == turn.Move {
			turn.For = append(turn.For, b)
		} else {
			turn.Others = append(turn.Others, b)
		}
	}
	t.Turns = append(t.Turns, turn)
	t.Ballots, t.ClosesAt, t.OpenedAt, t.Ply = nil, timeZero, timeZero, g.Ply()
	g.rec.DrawOfferBy = 0
	s.syncRecord(g)
	return &Outcome{Move: m, Mover: g.Player(chat)}, nil
}

// tally returns the move with most ballots; of moves with as many, the
// one voted for first.
func tally(ballots []storage.Ballot) string {
	count := map[string]int{}
	for _, b := range ballots {
		count[b.Move]++
	}
	best, most := "", 0
	for _, b := range ballots { // in the order cast: the first of equals stays
		if n := count[b.Move]; n > most {
			best, most = b.Move, n
		}
	}
	return best
}

// closeDueVote closes the open vote of a team game whose time is up (the
// clock's Tick calls it). It reports whether it did.
func (s *Service) closeDueVote(g *Game, now time.Time) (*Outcome, bool, error) {
	t := g.rec.Team
	if t == nil || t.ClosesAt.IsZero() || now.Before(t.ClosesAt) || !g.isTeamTurn() || t.Ply != g.Ply() || len(t.Ballots) == 0 {
		return nil, false, nil
	}
	o, err := s.closeVote(g)
	if err != nil {
		return nil, false, err
	}
	return o, true, nil
}

// MoveVotes is one move of an open vote and its ballots so far.
type MoveVotes struct {
	Move  string // in notation, or ResignVote
	Votes int
}

// VoteTally is the open vote's count so far: most votes first, the move
// voted for first among equals (as the vote would close now); nil when no
// vote is open.
func (g *Game) VoteTally() []MoveVotes {
	t := g.rec.Team
	if t == nil || !g.isTeamTurn() || t.Ply != g.Ply() {
		return nil
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

// IsTeamGame reports whether the chat plays this game by vote.
func (g *Game) IsTeamGame() bool { return g.rec.Team != nil }

// isTeamTurn reports whether the game goes on with the chat to move.
func (g *Game) isTeamTurn() bool {
	if g.rec.Team == nil || !g.rec.Active() {
		return false
	}
	_, p := g.ToMove()
	return p.AILevel == 0
}

// TeamVote is the open vote of a team game as the bot shows it.
type TeamVote struct {
	Open     bool // the chat is to move
	Ballots  int
	ClosesAt time.Time // zero until the first ballot
	Window   time.Duration
}

// Vote returns the state of the open vote of a team game (zero for any
// other game).
func (g *Game) Vote() TeamVote {
	t := g.rec.Team
	if t == nil {
		return TeamVote{}
	}
	v := TeamVote{Open: g.isTeamTurn(), Window: t.Window}
	if v.Open && t.Ply == g.Ply() {
		v.Ballots, v.ClosesAt = len(t.Ballots), t.ClosesAt
	}
	return v
}

// TeamTurns returns the votes closed so far, oldest first (a copy).
func (g *Game) TeamTurns() []storage.TeamTurn {
	if g.rec.Team == nil {
		return nil
	}
	return g.rec.Team.Clone().Turns
}

// Voter is one member's part in a team game: how often they voted and how
// often for the move the chat played.
type Voter struct {
	UserID int64
	Name   string
	Votes  int // turns voted on
	Chosen int // of those, votes for the move played
}

// Voters lists everyone who voted in a team game: those whose votes were
// played most often first, then by votes cast, then by first vote.
func (g *Game) Voters() []Voter {
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
	for _, turn := range g.TeamTurns() {
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
