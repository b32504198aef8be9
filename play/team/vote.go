package team

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// DefaultWindow is how long a vote stays open after its first ballot
// unless the request says otherwise.
const DefaultWindow = 60 * time.Second

// quietWindow closes the first turn's vote this long after its latest
// ballot (within the window): on the first turn nobody's habit is known
// (there is no last turn to count on), and a group whose members have all
// voted should not wait the full minute. A member who votes within it
// keeps it open for the next; one who is later votes on the next turn,
// and from then on the vote waits for them (everyoneVoted).
const quietWindow = 15 * time.Second

// ResignVote is the ballot to resign the chat's game: a majority of it
// (as of any move) ends the game, and so does the starter's alone.
const ResignVote = play.Resign

// GameRequest starts a game the chat plays against the AI by vote.
type GameRequest struct {
	ChatID   int64
	ChatName string // how the chat's side is named on the card
	Level    int
	Color    string // the chat's colour: white (default), black or random
	Variant  rules.Variant
	Lang     string
	By       int64         // the member who starts it (may end it alone)
	Window   time.Duration // 0 means DefaultWindow
	// Poll votes each turn in a native Telegram poll of the engine's
	// shortlist (poll.go) instead of by the card's buttons.
	Poll bool
	// DaysPerMove, if set, is the chat's pace (play.GameSpec.DaysPerMove)
	// instead of the server's timeout.
	DaysPerMove int
}

// NewGame starts a game by vote. If the AI has White, its move is owed
// from the start (the core's AI turns make it).
func (s *Service) NewGame(ctx context.Context, r GameRequest) (*play.Game, error) {
	window := cmp.Or(r.Window, DefaultWindow)
	if window < 10*time.Second || window > time.Hour {
		return nil, fmt.Errorf("%w: %v", ErrBadWindow, window)
	}
	if top := s.core.Config().MaxLevel; r.Level < 1 || r.Level > top {
		return nil, fmt.Errorf("%w: %d (1-%d)", play.ErrBadLevel, r.Level, top)
	}
	chat := storage.Player{Name: r.ChatName}
	bot := storage.Player{Name: play.AIName(r.Level), AILevel: r.Level}
	white, black := chat, bot
	switch r.Color {
	case play.ColorBlack:
		white, black = bot, chat
	case play.ColorWhite, "":
	case play.ColorRandom:
		if rand.IntN(2) == 0 {
			white, black = bot, chat
		}
	default:
		return nil, fmt.Errorf("%w: %q", play.ErrBadColour, r.Color)
	}
	return s.core.StartGame(ctx, play.GameSpec{Variant: r.Variant, White: white, Black: black, ChatID: r.ChatID,
		Lang: s.groupLang(ctx, r.ChatID, r.Lang), DaysPerMove: r.DaysPerMove, Team: &storage.TeamGame{Window: window, ByPoll: r.Poll, StartedBy: r.By}})
}

// groupLang is the language of the new game's card: the group's choice,
// else fallback (the starter's). A store that does not answer leaves the
// fallback: the game is still made.
func (s *Service) groupLang(ctx context.Context, chatID int64, fallback string) string {
	lang, err := s.core.ChatLang(ctx, chatID)
	if err != nil {
		s.log.Warn("the group's language is unknown; the starter's is used", "chat", chatID, "err", err)
	}
	return cmp.Or(lang, fallback)
}

// VoteOutcome is what a ballot did: the move voted for and its votes so
// far, and, when the ballot closed the vote, the move the chat played.
type VoteOutcome struct {
	Game    *play.Game
	Move    rules.Move // the move this ballot is for
	Votes   int        // ballots for that move, this one included
	Ballots int        // all ballots on this turn
	// Closed is set when this ballot closed the vote (everyone who voted
	// last time has voted): the chat's move was played.
	Closed *play.Outcome
	// Retracted is set when a member withdrew their poll answer (Move
	// and Votes are then zero).
	Retracted bool
}

// Vote casts voter's ballot for the move text (in notation) on the chat's
// turn in game id. ply is the board version the voter saw (play.AnyPly
// for a typed move). A ballot on a turn that is over is ErrVoteClosed, a
// second ballot ErrAlreadyVoted, an illegal move the rules' *MoveError;
// none of them changes anything.
func (s *Service) Vote(ctx context.Context, id string, voter storage.Player, ply int, text string) (*VoteOutcome, error) {
	return s.VoteIn(ctx, id, 0, voter, ply, text)
}

// VoteIn is Vote by a member of chat: in a game between two chats only
// the chat of the side to move votes (ErrNotYourTurn from the other).
// chat is not checked in a game one chat plays against the AI.
func (s *Service) VoteIn(ctx context.Context, id string, chat int64, voter storage.Player, ply int, text string) (*VoteOutcome, error) {
	var out VoteOutcome
	var closed *play.Outcome
	g, err := s.changeContended(ctx, id, func(g *play.Game) error {
		out, closed = VoteOutcome{}, nil
		if err := openVote(g, ply); err != nil {
			return err
		}
		if Sided(g) && chat != SideChat(g) {
			return ErrNotYourTurn
		}
		if slices.ContainsFunc(g.Team().Ballots, func(b storage.Ballot) bool { return b.UserID == voter.UserID }) {
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
	return voted(g, &out, closed), nil
}

// openVote checks that game g takes ballots on board version ply
// (play.AnyPly: whatever is on the board) and starts the vote's ballots
// afresh on a new board.
func openVote(g *play.Game, ply int) error {
	t := g.Team()
	if t == nil {
		return ErrNotTeamGame
	}
	if !g.Active() {
		return play.ErrGameOver
	}
	if !chatsTurn(g) || (ply != play.AnyPly && ply != g.Ply()) {
		return ErrVoteClosed
	}
	if t.Ply != g.Ply() {
		t.Ply, t.Ballots = g.Ply(), nil
		if len(t.Sides) == 0 {
			t.ClosesAt = time.Time{} // set by the first ballot
		}
	}
	return nil
}

// cast adds a ballot, checked against g's board, starts the vote's time
// with the first, fills out, and closes the vote when everyone has voted.
func (s *Service) cast(g *play.Game, b storage.Ballot, out *VoteOutcome) (*play.Outcome, error) {
	t := g.Team()
	t.Ballots = append(t.Ballots, b)
	now := s.core.Now()
	if t.ClosesAt.IsZero() {
		t.OpenedAt, t.ClosesAt = now, now.Add(t.Window)
	}
	if len(t.Turns) == 0 && len(t.Sides) == 0 {
		t.ClosesAt = t.OpenedAt.Add(t.Window)
		if quiet := now.Add(quietWindow); quiet.Before(t.ClosesAt) {
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
	if quorate(g) || b.Move == ResignVote && b.UserID == t.StartedBy && t.StartedBy != 0 {
		return s.closeVote(g)
	}
	return nil, nil
}

// voted completes a ballot's outcome once it is stored (the core has
// counted a game the vote ended).
func voted(g *play.Game, out *VoteOutcome, closed *play.Outcome) *VoteOutcome {
	out.Game = g
	if closed != nil {
		closed.Game = g
		closed.Ended = !g.Active()
		out.Closed = closed
	}
	return out
}

// changeContended is ChangeGame for writes many members make to one game
// at once, all of which should land (ballots, unlike moves, do not
// exclude each other): it tries again a few times when the change ran out
// of attempts. Every attempt lost is a write someone else won, so this
// bounds the wait.
func (s *Service) changeContended(ctx context.Context, id string, decide func(g *play.Game) error) (*play.Game, error) {
	for range 3 {
		g, err := s.core.ChangeGame(ctx, id, decide)
		if !errors.Is(err, play.ErrBusy) {
			return g, err
		}
	}
	return s.core.ChangeGame(ctx, id, decide)
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
func (s *Service) closeVote(g *play.Game) (*play.Outcome, error) {
	t := g.Team()
	move := tally(t.Ballots)
	if last := t.Ballots[len(t.Ballots)-1]; last.Move == ResignVote && last.UserID == t.StartedBy && t.StartedBy != 0 {
		move = ResignVote // the starter ends the game alone
	}
	chat := SideChat(g) // the side that voted, before its move is played
	o, err := s.core.PlayFor(g, move)
	if err != nil {
		return nil, fmt.Errorf("team: the voted move: %w", err)
	}
	turn := storage.TeamTurn{Ply: t.Ply, Move: move}
	if len(t.Sides) > 0 {
		turn.Chat = chat
	}
	for _, b := range t.Ballots {
		if b.Move == turn.Move {
			turn.For = append(turn.For, b)
		} else {
			turn.Others = append(turn.Others, b)
		}
	}
	t.Turns = append(t.Turns, turn)
	t.Ballots, t.ClosesAt, t.OpenedAt, t.Ply = nil, time.Time{}, time.Time{}, g.Ply()
	s.startTurn(g)
	return o, nil
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

// CloseDue closes the open vote of a game by vote whose time is up and
// returns the move the chat played; nil when no vote is due. It is the
// core's Deadline for the votes (play.Service.AddDeadline): the clock's
// Tick calls it within its write of g.
func (s *Service) CloseDue(g *play.Game, now time.Time) (*play.Outcome, error) {
	t := g.Team()
	if o, err := s.leaveDue(g, now); o != nil || err != nil {
		return o, err
	}
	if t == nil || t.ClosesAt.IsZero() || now.Before(t.ClosesAt) || !chatsTurn(g) {
		return nil, nil
	}
	if len(t.Sides) > 0 && (t.Ply != g.Ply() || len(t.Ballots) == 0) {
		return s.forfeit(g)
	}
	if t.Ply != g.Ply() || len(t.Ballots) == 0 {
		return nil, nil
	}
	return s.closeVote(g)
}
