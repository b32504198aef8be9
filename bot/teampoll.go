package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
)

// A team game started with "/team 6 poll" is voted in a native Telegram
// poll each turn (play/teampoll.go): a non-anonymous poll of the engine's
// shortlist, sent below the card when the chat's turn begins and stopped
// when the vote closes; /vote takes any legal move besides. The poll's
// answers arrive as poll_answer updates, which name the poll and the
// member but no chat: play finds the game by the poll's id in the store.
// What each way costs the group is measured in the comment of team.go.

// teamPolls keeps a team game voted by poll in step with its board: the
// poll of a vote that is over is stopped, and a turn of the chat's without
// a poll gets one. It runs in the background, off the handler's path: the
// options are a search. Both steps are claimed in the game's record, so
// of all the replicas and goroutines that call it for one board, one
// stops and one sends.
func (b *Bot) teamPolls(g *play.Game) {
	if !g.VotesByPoll() {
		return
	}
	id, chatID := g.ID(), g.ChatID()
	// Straight to the outbox, not among the replies of the update being
	// handled: those may be dropped (an update applied already), and a
	// poll claimed in the store must be sent, and its Done must come.
	out := b.out
	for c, ok := out.(*collector); ok; c, ok = out.(*collector) {
		out = c.next
	}
	b = &Bot{core: b.core, out: out}
	b.background(func(ctx context.Context) {
		if p, err := b.svc.StopPoll(ctx, id); err != nil {
			b.log.Warn("stopping a team poll", "game", id, "err", err)
		} else if p != nil {
			b.stopPoll(chatID, p.ID, p.MessageID)
		}
		b.openTeamPoll(ctx, id)
	})
}

// openTeamPoll sends the poll of the chat's turn, if it is due.
func (b *Bot) openTeamPoll(ctx context.Context, id string) {
	plan, err := b.svc.ClaimPoll(ctx, id)
	if err != nil {
		b.log.Warn("claiming a team poll", "game", id, "err", err)
		return
	}
	if plan == nil {
		return
	}
	g := plan.Game
	lang, chatID := cardLang(g), g.ChatID()
	options := make([]struct {
		Text string `json:"text"`
	}, len(plan.Moves))
	for i, m := range plan.Moves {
		options[i].Text = m
	}
	raw, err := json.Marshal(options)
	if err != nil {
		b.log.Error("encoding a team poll", "game", id, "err", err)
		return
	}
	question := b.texts.T(lang, "team_poll_question", "Move", plan.Ply/2+1)
	if legal := len(g.Rules().Legal()); legal > len(plan.Moves) {
		question = b.texts.N(lang, "team_poll_question_short", legal, "Move", plan.Ply/2+1, "Shown", len(plan.Moves))
	}
	params := tgbotapi.Params{"question": question, "options": string(raw), "is_anonymous": "false"}
	params.AddFirstValid("chat_id", chatID)
	if g.MessageID() != 0 {
		params.AddNonZero("reply_to_message_id", g.MessageID())
		params["allow_sending_without_reply"] = "true"
	}
	record, err := json.Marshal(sentRecord{Poll: &sentPoll{Game: id, Ply: plan.Ply}})
	if err != nil {
		b.log.Error("encoding a team poll's record", "game", id, "err", err)
		return
	}
	b.pollsSending.add()
	// The poll's id is recorded by whichever process sends it (Record,
	// recordSent), before the outbox forgets the request: a crash after
	// Telegram took it has the next process send it again and record that
	// one, never a poll sent and unrecorded, whose answers nobody could
	// count. Done is this process's: it ends the wait of answers that came
	// before the record (onPollAnswer).
	err = b.out.Enqueue(outbox.Reply{Call: &outbox.Call{Method: "sendPoll", Params: params}, ChatID: chatID, Group: chatID < 0,
		Record: record,
		Done: func(msg *tgbotapi.Message, err error) {
			if err != nil || msg == nil || msg.Poll == nil {
				// The turn is voted by /vote alone (its card says so too).
				b.log.Warn("sending a team poll", "game", id, "err", err)
				b.pollsSending.done()
				return
			}
			if b.recordsSent {
				b.pollsSending.done()
				return
			}
			// A sender that records nothing (a test's): recorded here.
			b.background(func(ctx context.Context) {
				defer b.pollsSending.done()
				if err := b.recordSent(ctx, record, msg, false); err != nil {
					b.log.Warn("recording a team poll", "game", id, "err", err)
				}
			})
		}})
	if err != nil {
		b.log.Warn("team poll dropped", "game", id, "err", err)
		b.pollsSending.done() // Done never comes
	}
}

// sentRecord is what the outbox keeps with a request whose answer must be
// recorded by whoever sends it (outbox.Reply.Record): a team poll, or a
// game's card (cardrecord.go).
type sentRecord struct {
	Poll      *sentPoll      `json:"poll,omitempty"`
	Card      *sentCard      `json:"card,omitempty"`
	TourFinal *sentTourFinal `json:"tour_final,omitempty"`
}

// sentTourFinal names the tournament whose final standings were sent.
type sentTourFinal struct {
	Chat int64  `json:"c"`
	ID   string `json:"t"`
}

// sentPoll names the turn a team poll votes on.
type sentPoll struct {
	Game string `json:"g"`
	Ply  int    `json:"p"`
}

// recordSent records a game's card (recordCard) or a team poll sent, in
// whichever process sent it. A poll is recorded so:
// its id and message with the game, or, if the vote is over or another
// poll of the turn is recorded already (a copy sent again after a crash),
// it is stopped. A poll sent again by a process that took the request
// over (again) may have a twin above that Telegram took from the process
// that died, whose answers can never be counted: the group is told to
// vote in this one.
func (b *Bot) recordSent(ctx context.Context, raw json.RawMessage, msg *tgbotapi.Message, again bool) error {
	var rec sentRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return fmt.Errorf("bot: a sent request's record: %w", err)
	}
	if rec.Card != nil {
		return b.recordCard(ctx, rec.Card, msg)
	}
	if rec.TourFinal != nil {
		return b.svc.TournamentFinalShown(ctx, rec.TourFinal.Chat, rec.TourFinal.ID)
	}
	if rec.Poll == nil {
		return nil
	}
	if msg.Poll == nil || msg.Chat == nil {
		return fmt.Errorf("bot: team poll of game %s: the answer has no poll", rec.Poll.Game)
	}
	chatID, pollID := msg.Chat.ID, msg.Poll.ID
	stop, err := b.svc.PollSent(ctx, rec.Poll.Game, rec.Poll.Ply, pollID, msg.MessageID)
	if stop {
		b.stopPoll(chatID, pollID, msg.MessageID)
	}
	if err != nil || stop || !again {
		return err
	}
	g, err := b.svc.Game(ctx, rec.Poll.Game)
	if err != nil {
		return err
	}
	lang := cardLang(g)
	b.send(outMessage{chatID: chatID, text: b.texts.T(lang, "team_poll_again", "Move", rec.Poll.Ply/2+1), replyTo: msg.MessageID}.reply())
	return nil
}

// stopPoll closes a team poll whose vote is over, so that it shows its
// final counts and takes no more answers, then forgets its id.
func (b *Bot) stopPoll(chatID int64, pollID string, messageID int) {
	params := tgbotapi.Params{}
	params.AddFirstValid("chat_id", chatID)
	params.AddNonZero("message_id", messageID)
	b.send(outbox.Reply{Call: &outbox.Call{Method: "stopPoll", Params: params}, ChatID: chatID, Group: chatID < 0,
		Done: func(_ *tgbotapi.Message, err error) {
			if err != nil {
				b.log.Warn("stopping a team poll", "poll", pollID, "err", err)
			}
			// Its vote is over either way: a late answer finds no game
			// and is refused as on a closed vote.
			b.background(func(ctx context.Context) {
				if err := b.svc.ForgetPoll(ctx, pollID); err != nil {
					b.log.Warn("forgetting a team poll", "poll", pollID, "err", err)
				}
			})
		}})
}

// onPollAnswer takes a member's answer in a team poll. Telegram's poll
// shows the member their vote and the counts, so a counted answer costs
// nothing; a refused one (they voted by /vote already, the vote has
// closed) cannot be told without a message, and changes nothing.
func (b *Bot) onPollAnswer(ctx context.Context, a *tgbotapi.PollAnswer) error {
	if a.User.ID == 0 {
		return nil // an anonymous admin answering as the chat: no member to count once
	}
	out, err := b.svc.PollVote(ctx, a.PollID, player(&a.User), a.OptionIDs)
	if errors.Is(err, play.ErrUnknownPoll) && b.pollsSending.wait(ctx, pollRecordWait) {
		// Answered the moment it appeared, before this process had
		// recorded it: once the polls it is sending are recorded, again.
		out, err = b.svc.PollVote(ctx, a.PollID, player(&a.User), a.OptionIDs)
	}
	if err != nil {
		return err
	}
	if out.Closed != nil {
		b.afterMove(ctx, out.Closed)
	}
	return nil
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
