package team

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	vote "github.com/bashni/bashni/play/team"
)

// A team game started with "/team 6 poll" is voted in a native Telegram
// poll each turn (play/team): a non-anonymous poll of the engine's
// shortlist, sent below the card when the chat's turn begins and stopped
// when the vote closes; /vote takes any legal move besides. The poll's
// answers arrive as poll_answer updates, which name the poll and the
// member but no chat: play finds the game by the poll's id in the store.
// What each way costs the group is measured in the comment of vote.go.

// teamPolls keeps a team game voted by poll in step with its board: the
// poll of a vote that is over is stopped, and a turn of the chat's without
// a poll gets one. It runs in the background, off the handler's path: the
// options are a search. Both steps are claimed in the game's record, so
// of all the replicas and goroutines that call it for one board, one
// stops and one sends.
func (m *module) teamPolls(_ context.Context, k *bot.Kit, g *play.Game) {
	if !vote.ByPoll(g) {
		return
	}
	id, chatID := g.ID(), g.ChatID()
	// Straight to the outbox, not among the replies of the update being
	// handled: those may be dropped (an update applied already), and a
	// poll claimed in the store must be sent, and its Done must come.
	k = k.Direct()
	k.Background(func(ctx context.Context) {
		if p, err := m.svc.StopPoll(ctx, id); err != nil {
			k.Log().Warn("stopping a team poll", "game", id, "err", err)
		} else if p != nil {
			m.stopPoll(k, chatID, p.ID, p.MessageID)
		}
		m.openTeamPoll(ctx, k, id)
	})
}

// openTeamPoll sends the poll of the chat's turn, if it is due.
func (m *module) openTeamPoll(ctx context.Context, k *bot.Kit, id string) {
	plan, err := m.svc.ClaimPoll(ctx, id)
	if err != nil {
		k.Log().Warn("claiming a team poll", "game", id, "err", err)
		return
	}
	if plan == nil {
		return
	}
	g := plan.Game
	lang, chatID := k.CardLang(g), g.ChatID()
	options := make([]struct {
		Text string `json:"text"`
	}, len(plan.Moves))
	for i, m := range plan.Moves {
		options[i].Text = m
	}
	raw, err := json.Marshal(options)
	if err != nil {
		k.Log().Error("encoding a team poll", "game", id, "err", err)
		return
	}
	question := k.Texts().T(lang, "team_poll_question", "Move", plan.Ply/2+1)
	if legal := len(g.Rules().Legal()); legal > len(plan.Moves) {
		question = k.Texts().N(lang, "team_poll_question_short", legal, "Move", plan.Ply/2+1, "Shown", len(plan.Moves))
	}
	params := tgbotapi.Params{"question": question, "options": string(raw), "is_anonymous": "false"}
	params.AddFirstValid("chat_id", chatID)
	if g.MessageID() != 0 {
		params.AddNonZero("reply_to_message_id", g.MessageID())
		params["allow_sending_without_reply"] = "true"
	}
	record, err := bot.SentRecord(pollRecord, sentPoll{Game: id, Ply: plan.Ply})
	if err != nil {
		k.Log().Error("encoding a team poll's record", "game", id, "err", err)
		return
	}
	m.sending.add()
	// The poll's id is recorded by whichever process sends it (Record,
	// recordPoll), before the outbox forgets the request: a crash after
	// Telegram took it has the next process send it again and record that
	// one, never a poll sent and unrecorded, whose answers nobody could
	// count. Done is this process's: it ends the wait of answers that came
	// before the record (onPollAnswer).
	err = k.Enqueue(outbox.Reply{Call: &outbox.Call{Method: "sendPoll", Params: params}, ChatID: chatID, Group: chatID < 0,
		Record: record,
		Done: func(msg *tgbotapi.Message, err error) {
			if err != nil || msg == nil || msg.Poll == nil {
				// The turn is voted by /vote alone (its card says so too).
				k.Log().Warn("sending a team poll", "game", id, "err", err)
				m.sending.done()
				return
			}
			if k.RecordsSent() {
				m.sending.done()
				return
			}
			// A sender that records nothing (a test's): recorded here.
			k.Background(func(ctx context.Context) {
				defer m.sending.done()
				if err := k.RecordSent(ctx, record, msg); err != nil {
					k.Log().Warn("recording a team poll", "game", id, "err", err)
				}
			})
		}})
	if err != nil {
		k.Log().Warn("team poll dropped", "game", id, "err", err)
		m.sending.done() // Done never comes
	}
}

// pollRecord is the kind of a team poll's record (bot.SentRecord): the
// outbox keeps it with the sendPoll, and whichever process sends the poll
// records it (recordPoll). Its JSON is what the journal has always kept.
const pollRecord = "poll"

// sentPoll names the turn a team poll votes on.
type sentPoll struct {
	Game string `json:"g"`
	Ply  int    `json:"p"`
}

// recordPoll records a team poll sent, in whichever process sent it: its
// id and message with the game, or, if the vote is over or another poll
// of the turn is recorded already (a copy sent again after a crash), it
// is stopped. A poll sent again by a process that took the request over
// (again) may have a twin above that Telegram took from the process that
// died, whose answers can never be counted: the group is told to vote in
// this one.
func (m *module) recordPoll(ctx context.Context, k *bot.Kit, raw json.RawMessage, msg *tgbotapi.Message, again bool) error {
	var rec sentPoll
	if err := json.Unmarshal(raw, &rec); err != nil {
		return fmt.Errorf("team: a sent poll's record: %w", err)
	}
	if msg.Poll == nil || msg.Chat == nil {
		return fmt.Errorf("team: poll of game %s: the answer has no poll", rec.Game)
	}
	chatID, pollID := msg.Chat.ID, msg.Poll.ID
	stop, err := m.svc.PollSent(ctx, rec.Game, rec.Ply, pollID, msg.MessageID)
	if stop {
		m.stopPoll(k, chatID, pollID, msg.MessageID)
	}
	if err != nil || stop || !again {
		return err
	}
	g, err := k.Service().Game(ctx, rec.Game)
	if err != nil {
		return err
	}
	k.Text(&tgbotapi.Chat{ID: chatID}, k.Texts().T(k.CardLang(g), "team_poll_again", "Move", rec.Ply/2+1), msg.MessageID)
	return nil
}

// stopPoll closes a team poll whose vote is over, so that it shows its
// final counts and takes no more answers, then forgets its id.
func (m *module) stopPoll(k *bot.Kit, chatID int64, pollID string, messageID int) {
	params := tgbotapi.Params{}
	params.AddFirstValid("chat_id", chatID)
	params.AddNonZero("message_id", messageID)
	k.Send(outbox.Reply{Call: &outbox.Call{Method: "stopPoll", Params: params}, ChatID: chatID, Group: chatID < 0,
		Done: func(_ *tgbotapi.Message, err error) {
			if err != nil {
				k.Log().Warn("stopping a team poll", "poll", pollID, "err", err)
			}
			// Its vote is over either way: a late answer finds no game
			// and is refused as on a closed vote.
			k.Background(func(ctx context.Context) {
				if err := m.svc.ForgetPoll(ctx, pollID); err != nil {
					k.Log().Warn("forgetting a team poll", "poll", pollID, "err", err)
				}
			})
		}})
}

// onPollAnswer takes a member's answer in a team poll. Telegram's poll
// shows the member their vote and the counts, so a counted answer costs
// nothing; a refused one (they voted by /vote already, the vote has
// closed) cannot be told without a message, and changes nothing. The
// bot's polls are all team polls: every answer is this module's.
func (m *module) onPollAnswer(ctx context.Context, k *bot.Kit, a *tgbotapi.PollAnswer) (bool, error) {
	if a.User.ID == 0 {
		return true, nil // an anonymous admin answering as the chat: no member to count once
	}
	out, err := m.svc.PollVote(ctx, a.PollID, k.Player(&a.User), a.OptionIDs)
	if errors.Is(err, vote.ErrUnknownPoll) && m.sending.wait(ctx, pollRecordWait) {
		// Answered the moment it appeared, before this process had
		// recorded it: once the polls it is sending are recorded, again.
		out, err = m.svc.PollVote(ctx, a.PollID, k.Player(&a.User), a.OptionIDs)
	}
	if err != nil {
		return true, err
	}
	if out.Closed != nil {
		k.ShowMove(ctx, out.Closed, nil)
	}
	return true, nil
}

// pollRecordWait bounds how long an answer in a poll nobody knows waits
// for the polls this process is sending to be recorded.
const pollRecordWait = 5 * time.Second

// pendingPolls counts the polls this process has sent, or is sending,
// whose ids are not recorded yet.
type pendingPolls struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed while n is 0; nil means closed
}

func (p *pendingPolls) add() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n == 0 {
		p.idle = make(chan struct{})
	}
	p.n++
}

func (p *pendingPolls) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n--
	if p.n == 0 {
		close(p.idle)
	}
}

// wait waits until none is pending, at most d; it reports whether any
// was pending and all were recorded in time.
func (p *pendingPolls) wait(ctx context.Context, d time.Duration) bool {
	p.mu.Lock()
	idle, pending := p.idle, p.n > 0
	p.mu.Unlock()
	if !pending {
		return false
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-idle:
		return true
	case <-timer.C:
		return false
	case <-ctx.Done():
		return false
	}
}
