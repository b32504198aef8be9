package telegramtest

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Poll is the fake's view of a native poll the bot sent (sendPoll): its
// options, the answers counted per option, and whether it is closed
// (stopPoll).
type Poll struct {
	ID        string
	Question  string
	Options   []string
	Counts    []int // answers per option
	Voters    int   // users with an answer
	Anonymous bool
	Closed    bool
}

// pollState is a poll message's poll. Callers hold s.mu.
type pollState struct {
	id        string
	question  string
	options   []string
	anonymous bool
	closed    bool
	answers   map[int64][]int // by user: the options chosen now
}

// pollOptionsMax is Telegram's limit on a poll's options (Bot API 9.1
// raised it from 10 to 12).
const pollOptionsMax = 12

func (p *pollState) export() *Poll {
	out := &Poll{ID: p.id, Question: p.question, Options: append([]string(nil), p.options...),
		Counts: make([]int, len(p.options)), Anonymous: p.anonymous, Closed: p.closed}
	for _, opts := range p.answers {
		if len(opts) > 0 {
			out.Voters++
		}
		for _, o := range opts {
			out.Counts[o]++
		}
	}
	return out
}

func (p *pollState) api() *tgbotapi.Poll {
	e := p.export()
	out := &tgbotapi.Poll{ID: p.id, Question: p.question, TotalVoterCount: e.Voters, IsClosed: p.closed,
		IsAnonymous: p.anonymous, Type: "regular"}
	for i, text := range p.options {
		out.Options = append(out.Options, tgbotapi.PollOption{Text: text, VoterCount: e.Counts[i]})
	}
	return out
}

// sendPoll sends a regular poll. Options are a JSON array of strings (the
// form tgbotapi v5.5.1 sends) or of InputPollOption objects (the current
// form); 2 to pollOptionsMax of them, each 1-100 characters, the question
// 1-300. is_anonymous defaults to true, as on Telegram.
func (s *Server) sendPoll(c *Call) (any, *Failure) {
	cs, f := s.sendTarget(c)
	if f != nil {
		return nil, f
	}
	q := c.Params["question"]
	if n := utf8.RuneCountInString(q); n < 1 || n > 300 {
		return nil, badRequest("poll question length must not exceed 300")
	}
	options, f := pollOptions(c.Params["options"])
	if f != nil {
		return nil, f
	}
	markup, f := parseMarkup(c.Params["reply_markup"], false)
	if f != nil {
		return nil, f
	}
	replyTo, f := replyTarget(cs, c)
	if f != nil {
		return nil, f
	}
	if t := c.Params["type"]; t != "" && t != "regular" && t != "quiz" {
		return nil, badRequest("wrong poll type specified")
	}
	m := s.newMessage(cs, "poll")
	m.markup, m.replyTo = markup, replyTo
	s.polls++
	m.poll = &pollState{id: "poll" + strconv.Itoa(s.polls), question: q, options: options,
		anonymous: c.Params["is_anonymous"] != "false", answers: map[int64][]int{}}
	s.pollMsgs[m.poll.id] = m
	return sent{m, s.apiMessage(m, true)}, nil
}

// pollOptions reads sendPoll's options.
func pollOptions(raw string) ([]string, *Failure) {
	var texts []string
	if err := json.Unmarshal([]byte(raw), &texts); err != nil {
		var objs []struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal([]byte(raw), &objs); err != nil {
			return nil, badRequest("can't parse options JSON object")
		}
		texts = texts[:0]
		for _, o := range objs {
			texts = append(texts, o.Text)
		}
	}
	if len(texts) < 2 || len(texts) > pollOptionsMax {
		return nil, badRequest("poll must have 2-%d options", pollOptionsMax)
	}
	for _, t := range texts {
		if n := utf8.RuneCountInString(t); n < 1 || n > 100 {
			return nil, badRequest("poll options length must not exceed 100")
		}
	}
	return texts, nil
}

// stopPoll closes a poll the bot sent and answers with the final poll.
func (s *Server) stopPoll(c *Call) (any, *Failure) {
	chatID, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
	msgID, _ := strconv.Atoi(c.Params["message_id"])
	cs, ok := s.chats[chatID]
	if !ok {
		return nil, badRequest("chat not found")
	}
	m, ok := cs.msgs[msgID]
	if !ok || m.deleted {
		return nil, badRequest("message to stop poll not found")
	}
	if m.poll == nil || !m.fromBot {
		return nil, badRequest("message with poll to stop not found")
	}
	if m.poll.closed {
		return nil, badRequest("poll has already been closed")
	}
	m.poll.closed = true
	m.edits++
	return sent{m, m.poll.api()}, nil
}

// PollAnswer builds a poll_answer update: from answers the bot's poll
// pollID with options (none: the answer is retracted), which the poll
// counts. Telegram tells bots of answers only in polls that are not
// anonymous, and takes none in a closed poll: the update is built all the
// same, so a test can show the bot one that arrives late, but nothing is
// counted.
func (s *Server) PollAnswer(from tgbotapi.User, pollID string, options ...int) tgbotapi.Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.pollMsgs[pollID]
	if !ok {
		s.t.Errorf("telegramtest: PollAnswer: the bot sent no poll %q", pollID)
	} else if p := m.poll; !p.closed {
		for _, o := range options {
			if o < 0 || o >= len(p.options) {
				s.t.Errorf("telegramtest: PollAnswer: poll %q has no option %d", pollID, o)
				return tgbotapi.Update{}
			}
		}
		p.answers[from.ID] = append([]int(nil), options...)
	}
	s.meetUser(&from)
	return tgbotapi.Update{PollAnswer: &tgbotapi.PollAnswer{PollID: pollID, User: from, OptionIDs: append([]int{}, options...)}}
}

// PollOf returns the poll of the bot's poll message pollID.
func (s *Server) PollOf(pollID string) (*Poll, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.pollMsgs[pollID]
	if !ok {
		return nil, false
	}
	return m.poll.export(), true
}
