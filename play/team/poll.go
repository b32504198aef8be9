package team

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// A game by vote may be voted in a native Telegram poll instead of by the
// card's buttons (GameRequest.Poll). Each of the chat's turns then has
// one poll, claimed in the game's record before it is sent (so of many
// replicas only one sends it), named by the id Telegram gave it once sent,
// and stopped when the vote closes. Its answers count as ballots exactly
// as buttons and /vote do (the same Ballots, the same closing rules),
// marked ByPoll because the member may retract or change them in the poll,
// which Telegram allows and a button does not. The store maps the poll's
// id to the game (Store): an answer names no chat.

// PollOptionsMax is how many options Telegram allows in a poll (Bot API
// 9.1 raised it from 10 to 12). A turn with more legal moves offers the
// engine's shortlist of that many; the rest stay votable by /vote.
const PollOptionsMax = 12

// shortlistDepth is how deep the engine looks at each legal move to rank
// them for a poll: enough to see a capture answered, quick (a few
// thousand positions a move).
const shortlistDepth = 4

// PollPlan is a poll to send: the board version it votes on and its
// options, in notation order.
type PollPlan struct {
	Game  *play.Game
	Ply   int
	Moves []string
}

// ClaimPoll claims the poll of the chat's current turn in game id,
// voted by poll, and returns what to send; nil when there is none to send
// (not the chat's turn, voted by buttons, or claimed already).
func (s *Service) ClaimPoll(ctx context.Context, id string) (*PollPlan, error) {
	g, err := s.core.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	if !pollWanted(g) {
		return nil, nil
	}
	moves := Shortlist(ctx, g.Rules(), PollOptionsMax)
	ply := g.Ply()
	claimed := false
	g, err = s.core.ChangeGame(ctx, id, func(g *play.Game) error {
		claimed = false
		if !pollWanted(g) || g.Ply() != ply {
			return play.Unchanged
		}
		g.Team().Poll = &storage.TeamPoll{Ply: ply, Moves: moves}
		claimed = true
		return nil
	})
	if err != nil || !claimed {
		return nil, err
	}
	return &PollPlan{Game: g, Ply: ply, Moves: moves}, nil
}

// pollWanted reports whether the chat is to vote by poll on this board
// and its poll is not claimed yet. A board with one legal move has no
// poll (Telegram wants two options): the card offers it as a button.
func pollWanted(g *play.Game) bool {
	t := g.Team()
	return t != nil && t.ByPoll && chatsTurn(g) && (t.Poll == nil || t.Poll.Ply != g.Ply()) && len(g.Rules().Legal()) >= 2
}

// PollsThisTurn reports whether the chat's vote on g's board is by poll:
// a game voted by poll, with more than one legal move.
func PollsThisTurn(g *play.Game) bool {
	return ByPoll(g) && len(g.Rules().Legal()) >= 2
}

// PollSent records the poll sent for board version ply of game id:
// its Telegram id and message, and the poll id's game in the store. It
// reports whether the caller is to stop the poll at once: its vote closed
// while it was being sent (it is then marked stopped, so StopPoll leaves
// it to the caller).
//
// The poll's game is stored first: a crash between the two writes leaves
// the poll unrecorded in the game, and sent again and recorded by the
// next process, whose record stops this one. An answer between them is
// ErrUnknownPoll (PollVote), as one before both.
func (s *Service) PollSent(ctx context.Context, id string, ply int, pollID string, messageID int) (stop bool, err error) {
	if err := s.store.PutPoll(ctx, pollID, id); err != nil {
		return true, err
	}
	_, err = s.core.ChangeGame(ctx, id, func(g *play.Game) error {
		stop = true
		t := g.Team()
		if t == nil || t.Poll == nil || t.Poll.Ply != ply || t.Poll.ID != "" {
			return play.Unchanged // another turn's poll is claimed: this one is over
		}
		t.Poll.ID, t.Poll.MessageID = pollID, messageID
		stop = !chatsTurn(g) || g.Ply() != ply
		t.Poll.Stopped = stop
		return nil
	})
	return stop, err
}

// StopPoll claims the stopping of game id's poll once its vote is
// over (the move played, or the game ended) and returns it; nil when
// there is none to stop or another caller has claimed it.
func (s *Service) StopPoll(ctx context.Context, id string) (*storage.TeamPoll, error) {
	var p *storage.TeamPoll
	_, err := s.core.ChangeGame(ctx, id, func(g *play.Game) error {
		p = nil
		t := g.Team()
		if t == nil || t.Poll == nil || t.Poll.ID == "" || t.Poll.Stopped || (chatsTurn(g) && t.Poll.Ply == g.Ply()) {
			return play.Unchanged
		}
		t.Poll.Stopped = true
		c := *t.Poll
		p = &c
		return nil
	})
	return p, err
}

// ForgetPoll drops a stopped poll's id from the store.
func (s *Service) ForgetPoll(ctx context.Context, pollID string) error {
	return s.store.DeletePoll(ctx, pollID)
}

// PollVote takes voter's answer in a game's poll: options are the
// indexes they chose now (Telegram sends the whole answer each time),
// none when they retracted it. A first answer is a ballot like any other;
// a changed one replaces the member's earlier poll ballot (and goes to the
// back of the queue for ties); a retraction withdraws it. A member who
// voted by button or /vote already is ErrAlreadyVoted; an answer in a poll
// whose vote is over is ErrVoteClosed, and one in a poll not yet recorded
// (PollSent) ErrUnknownPoll. None of these changes anything.
func (s *Service) PollVote(ctx context.Context, pollID string, voter storage.Player, options []int) (*VoteOutcome, error) {
	id, err := s.store.PollGame(ctx, pollID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, ErrUnknownPoll
	}
	if err != nil {
		return nil, err
	}
	var out VoteOutcome
	var closed *play.Outcome
	g, err := s.changeContended(ctx, id, func(g *play.Game) error {
		out, closed = VoteOutcome{}, nil
		t := g.Team()
		if t != nil && t.Poll != nil && t.Poll.ID == "" {
			// The turn's poll is being recorded: PollSent has stored
			// the poll's game but not yet the game's poll. Unknown for
			// a moment, as before the first write, so that the process
			// sending it waits for the record and counts the answer.
			return ErrUnknownPoll
		}
		if t == nil || t.Poll == nil || t.Poll.ID != pollID {
			return ErrVoteClosed
		}
		if err := openVote(g, t.Poll.Ply); err != nil {
			return err
		}
		i := slices.IndexFunc(t.Ballots, func(b storage.Ballot) bool { return b.UserID == voter.UserID })
		if i >= 0 && !t.Ballots[i].ByPoll {
			return ErrAlreadyVoted
		}
		if len(options) == 0 {
			if i < 0 {
				return play.Unchanged
			}
			t.Ballots = slices.Delete(t.Ballots, i, i+1)
			if len(t.Ballots) == 0 {
				t.ClosesAt = time.Time{} // the next first ballot starts the vote's time afresh
			}
			out.Retracted, out.Ballots = true, len(t.Ballots)
			return nil
		}
		if options[0] < 0 || options[0] >= len(t.Poll.Moves) {
			return fmt.Errorf("%w: option %d of %d", ErrBadPollAnswer, options[0], len(t.Poll.Moves))
		}
		p := g.Position()
		m, err := rules.ParseMove(&p, t.Poll.Moves[options[0]])
		if err != nil {
			return err
		}
		if i >= 0 {
			t.Ballots = slices.Delete(t.Ballots, i, i+1) // changed: the new answer replaces it
		}
		closed, err = s.cast(g, storage.Ballot{UserID: voter.UserID, Name: voter.Name, Move: m.String(), ByPoll: true}, &out)
		return err
	})
	if err != nil {
		return nil, err
	}
	return voted(g, &out, closed), nil
}

// Poll returns the poll of g's current or latest turn (a copy), nil if it
// has none.
func Poll(g *play.Game) *storage.TeamPoll {
	if t := g.Team(); t != nil && t.Poll != nil {
		return t.Clone().Poll
	}
	return nil
}

// ByPoll reports whether the chat votes on g in a native poll.
func ByPoll(g *play.Game) bool { return g.Team() != nil && g.Team().ByPoll }

// Shortlist returns up to n of the position's legal moves the engine
// likes best, in notation order (a poll should not rank them for the
// chat); all of them when there are no more than n. Each move is searched
// to shortlistDepth by an engine of its own (a small table): the ranking
// must not wait behind the AI's searches.
func Shortlist(ctx context.Context, g *rules.Game, n int) []string {
	legal := g.Legal()
	if len(legal) > n {
		type scored struct {
			m     rules.Move
			score int
		}
		e := ai.New(ai.Options{HashMB: 1})
		p := g.Position()
		history := g.History()
		ranked := make([]scored, 0, len(legal))
		for _, m := range legal {
			q := p.Play(m)
			res, err := e.Search(ctx, ai.Request{Position: q, History: append(slices.Clone(history), q.Hash()),
				Limits: ai.Limits{Depth: shortlistDepth - 1}})
			score := -res.Score
			if errors.Is(err, ai.ErrNoMoves) {
				score = ai.MateScore // the move wins at once
			}
			ranked = append(ranked, scored{m, score})
		}
		slices.SortStableFunc(ranked, func(a, b scored) int {
			return cmp.Or(b.score-a.score, cmp.Compare(a.m.String(), b.m.String()))
		})
		legal = make([]rules.Move, 0, n)
		for _, r := range ranked[:n] {
			legal = append(legal, r.m)
		}
	}
	out := make([]string, 0, len(legal))
	for _, m := range rules.SortedMoves(legal) {
		out = append(out, m.String())
	}
	return out
}
