package telegramtest

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// PushUpdate queues an update for getUpdates, assigning update_id when it
// is zero, and returns its update_id. With privacy mode on (the default), a
// group message the bot would not see is dropped, logged, and 0 returned.
// The fake also learns from the update: chats, users, incoming messages,
// callback and inline queries to be answered, and the bot's membership from
// my_chat_member.
func (s *Server) PushUpdate(u tgbotapi.Update) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if why := s.hidden(u); why != "" {
		s.t.Logf("telegramtest: update dropped: %s", why)
		return 0
	}
	s.stamp(&u)
	s.register(u)
	s.updates = append(s.updates, queued{id: u.UpdateID, typ: updateType(u), json: encodeJSON(u)})
	s.notify()
	return u.UpdateID
}

// queued is an update waiting for getUpdates, kept as the JSON it will be
// served as: the test may reuse what it pushed.
type queued struct {
	id   int
	typ  string // as updateType says
	json []byte
}

// encoded is a result already encoded as the fake answers it.
type encoded []byte

// PendingUpdates returns how many queued updates getUpdates has not yet
// seen confirmed by an offset.
func (s *Server) PendingUpdates() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.updates)
}

// stamp assigns an update_id. Callers hold s.mu.
func (s *Server) stamp(u *tgbotapi.Update) {
	if u.UpdateID == 0 {
		u.UpdateID = s.nextUpdateID
	}
	s.nextUpdateID = max(s.nextUpdateID, u.UpdateID+1)
}

// hidden says why privacy mode keeps an update from the bot, or "".
// Callers hold s.mu.
func (s *Server) hidden(u tgbotapi.Update) string {
	m := u.Message
	if !s.opts.privacy || m == nil || m.Chat == nil || (m.Chat.Type != "group" && m.Chat.Type != "supergroup") {
		return ""
	}
	if m.Text == "" && m.Caption == "" && m.Photo == nil && m.Document == nil {
		return "" // service messages reach every bot
	}
	if r := m.ReplyToMessage; r != nil && r.From != nil && r.From.ID == s.bot.ID {
		return ""
	}
	if len(m.Entities) > 0 && m.Entities[0].Type == "bot_command" && m.Entities[0].Offset == 0 && m.Entities[0].Length <= len(m.Text) {
		_, to, addressed := strings.Cut(m.Text[:m.Entities[0].Length], "@")
		if !addressed || strings.EqualFold(to, s.bot.UserName) {
			return ""
		}
	}
	return "group privacy mode hides " + strconv.Quote(m.Text) + " in chat " + strconv.FormatInt(m.Chat.ID, 10) +
		" from the bot: it is neither a command for the bot nor a reply to it (see WithoutPrivacyMode)"
}

// register learns from an update. Callers hold s.mu.
func (s *Server) register(u tgbotapi.Update) {
	for _, m := range []*tgbotapi.Message{u.Message, u.EditedMessage, u.ChannelPost, u.EditedChannelPost} {
		if m != nil {
			s.incoming(m)
		}
	}
	if q := u.CallbackQuery; q != nil {
		s.meetUser(q.From)
		if _, ok := s.callbacks[q.ID]; !ok {
			s.callbacks[q.ID] = &callbackState{}
		}
		if q.Message != nil && q.Message.Chat != nil {
			s.meetChat(*q.Message.Chat)
		}
		s.inlineMessage(q.InlineMessageID)
	}
	if q := u.InlineQuery; q != nil {
		s.meetUser(q.From)
		if _, ok := s.inlineQueries[q.ID]; !ok {
			s.inlineQueries[q.ID] = &inlineState{}
		}
	}
	if r := u.ChosenInlineResult; r != nil {
		s.meetUser(r.From)
		s.inlineMessage(r.InlineMessageID)
	}
	if m := u.MyChatMember; m != nil {
		cs := s.meetChat(m.Chat)
		cs.members[s.bot.ID] = m.NewChatMember.Status
	}
}

// inlineMessage returns the inline message with the id, creating an empty
// one for an id the fake has not seen. Callers hold s.mu.
func (s *Server) inlineMessage(id string) *message {
	if id == "" {
		return nil
	}
	if m, ok := s.inline[id]; ok {
		return m
	}
	m := &message{inlineID: id, from: s.bot, fromBot: true, date: time.Now()}
	s.inline[id] = m
	return m
}

func (s *Server) getUpdates(ctx context.Context, c *Call) (any, *Failure) {
	offset, _ := strconv.Atoi(c.Params["offset"])
	limit, _ := strconv.Atoi(c.Params["limit"])
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	timeout, _ := strconv.Atoi(c.Params["timeout"])
	var allowed []string
	if raw := c.Params["allowed_updates"]; raw != "" {
		if err := json.Unmarshal([]byte(raw), &allowed); err != nil {
			return nil, badRequest("can't parse allowed_updates JSON array")
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.webhook.URL != "" {
		return nil, &Failure{Code: http.StatusConflict, Description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"}
	}
	if allowed != nil {
		s.allowed = allowed
	}
	// A newer getUpdates ends a pending one with 409, as on Telegram, which
	// catches two polling loops running at once.
	s.pollGen++
	gen := s.pollGen
	s.notify()
	s.confirm(offset)

	timer := time.NewTimer(time.Duration(max(timeout, 0)) * time.Second)
	defer timer.Stop()
	for {
		if gen != s.pollGen {
			return nil, &Failure{Code: http.StatusConflict, Description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"}
		}
		if ups := s.deliverable(limit); len(ups) > 0 || timeout <= 0 {
			return updatesJSON(ups), nil
		}
		changed := s.changed
		s.waiting++
		if s.pollStarted != nil {
			close(s.pollStarted)
			s.pollStarted = nil
		}
		s.mu.Unlock()
		over := false
		select {
		case <-changed:
		case <-timer.C:
			over = true
		case <-ctx.Done():
			over = true
		case <-s.done:
			over = true
		}
		s.mu.Lock()
		s.waiting--
		if over {
			return updatesJSON(s.deliverable(limit)), nil
		}
	}
}

// confirm forgets the updates an offset confirms. Callers hold s.mu.
func (s *Server) confirm(offset int) {
	switch {
	case offset > 0:
		s.updates = slices.DeleteFunc(s.updates, func(u queued) bool { return u.id < offset })
	case offset < 0 && -offset < len(s.updates):
		s.updates = slices.Delete(s.updates, 0, len(s.updates)+offset)
	}
}

// deliverable returns up to limit queued updates of the allowed types,
// dropping the others as Telegram does. Callers hold s.mu.
func (s *Server) deliverable(limit int) []queued {
	s.updates = slices.DeleteFunc(s.updates, func(u queued) bool {
		if s.allows(u.typ) {
			return false
		}
		s.t.Logf("telegramtest: update %d dropped: its type %s is not in allowed_updates %q", u.id, u.typ, s.allowed)
		return true
	})
	return s.updates[:min(limit, len(s.updates)):min(limit, len(s.updates))]
}

// updatesJSON encodes updates as getUpdates answers them: a JSON array.
func updatesJSON(ups []queued) encoded {
	n := 2
	for _, u := range ups {
		n += len(u.json) + 1
	}
	b := append(make([]byte, 0, n), '[')
	for i, u := range ups {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, u.json...)
	}
	return append(b, ']')
}

// allows reports whether allowed_updates lets an update type through; by
// default every type but chat_member. Callers hold s.mu.
func (s *Server) allows(typ string) bool {
	if len(s.allowed) == 0 {
		return typ != "chat_member"
	}
	return slices.Contains(s.allowed, typ)
}

func updateType(u tgbotapi.Update) string {
	switch {
	case u.Message != nil:
		return "message"
	case u.EditedMessage != nil:
		return "edited_message"
	case u.ChannelPost != nil:
		return "channel_post"
	case u.EditedChannelPost != nil:
		return "edited_channel_post"
	case u.InlineQuery != nil:
		return "inline_query"
	case u.ChosenInlineResult != nil:
		return "chosen_inline_result"
	case u.CallbackQuery != nil:
		return "callback_query"
	case u.ShippingQuery != nil:
		return "shipping_query"
	case u.PreCheckoutQuery != nil:
		return "pre_checkout_query"
	case u.Poll != nil:
		return "poll"
	case u.PollAnswer != nil:
		return "poll_answer"
	case u.MyChatMember != nil:
		return "my_chat_member"
	case u.ChatMember != nil:
		return "chat_member"
	case u.ChatJoinRequest != nil:
		return "chat_join_request"
	}
	return "unknown"
}

// WaitPolling waits until a getUpdates call is waiting for updates: a
// long poll is in flight. It fails t if none starts within timeout.
func (s *Server) WaitPolling(t testing.TB, timeout time.Duration) {
	t.Helper()
	s.mu.Lock()
	if s.waiting > 0 {
		s.mu.Unlock()
		return
	}
	if s.pollStarted == nil {
		s.pollStarted = make(chan struct{})
	}
	started := s.pollStarted
	s.mu.Unlock()
	select {
	case <-started:
	case <-time.After(timeout):
		t.Fatalf("telegramtest: no getUpdates call waiting after %v", timeout)
	}
}

// WaitConfirmed waits until a getUpdates offset has confirmed every pushed
// update. It fails t if some are still unconfirmed after timeout.
func (s *Server) WaitConfirmed(t testing.TB, timeout time.Duration) {
	t.Helper()
	if !s.wait(timeout, func([]Call) bool { return s.PendingUpdates() == 0 }) {
		t.Fatalf("telegramtest: %d updates still unconfirmed after %v", s.PendingUpdates(), timeout)
	}
}
