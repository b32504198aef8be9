package telegramtest

import (
	"bytes"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Msg is the fake's view of a message: what the chat shows now.
type Msg struct {
	ChatID   int64  // 0 for inline messages
	ID       int    // message_id; 0 for inline messages
	InlineID string // inline_message_id of a message sent via inline mode
	FromBot  bool   // sent by the bot, rather than by a user
	FromID   int64
	// Kind is "text", "photo", "document", "animation", "poll", or another
	// media type an edit switched to.
	Kind string
	// Text is the text or caption as users see it: HTML parsed, leading and
	// trailing white space trimmed.
	Text      string
	ParseMode string
	// FileID is the media's file_id; FileName and Data are its upload's
	// name and bytes, MediaURL the URL it was sent by.
	FileID      string
	FileName    string
	Data        []byte
	MediaURL    string
	ReplyMarkup *tgbotapi.InlineKeyboardMarkup // nil: no inline keyboard
	ReplyTo     int                            // message_id replied to
	Date        time.Time
	EditDate    time.Time // zero until edited
	Edits       int       // successful edits
	Deleted     bool
	// Reaction is the bot's reaction on the message (setMessageReaction),
	// "" if none.
	Reaction string
	// Poll is the poll of a message of Kind "poll" (sendPoll), nil for
	// other messages.
	Poll *Poll
}

type chatState struct {
	chat    tgbotapi.Chat
	known   bool // seen in an update, as opposed to invented for a send
	lastID  int
	msgs    map[int]*message
	members map[int64]string // statuses set with SetChatMember
	seen    map[int64]bool   // users seen in the chat
}

type message struct {
	chatID    int64
	id        int
	inlineID  string
	from      tgbotapi.User
	fromBot   bool
	kind      string
	text      string
	format    string // formatting entities, to tell "not modified"
	parseMode string
	fileID    string
	markup    *inlineKeyboard // nil if none
	replyTo   int
	date      time.Time
	editDate  time.Time
	edits     int
	deleted   bool
	reaction  string // the bot's emoji reaction
	poll      *pollState
}

// Message returns a message of a chat, deleted ones included.
func (s *Server) Message(chatID int64, messageID int) (Msg, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs, ok := s.chats[chatID]
	if !ok {
		return Msg{}, false
	}
	m, ok := cs.msgs[messageID]
	if !ok {
		return Msg{}, false
	}
	return s.export(m), true
}

// Messages returns a chat's messages, both ways and deleted ones included,
// in message_id order.
func (s *Server) Messages(chatID int64) []Msg {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs, ok := s.chats[chatID]
	if !ok {
		return nil
	}
	ids := slices.Sorted(maps.Keys(cs.msgs))
	out := make([]Msg, 0, len(ids))
	for _, id := range ids {
		out = append(out, s.export(cs.msgs[id]))
	}
	return out
}

// InlineMessage returns a message sent via inline mode, by its
// inline_message_id.
func (s *Server) InlineMessage(inlineMessageID string) (Msg, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.inline[inlineMessageID]
	if !ok {
		return Msg{}, false
	}
	return s.export(m), true
}

// export copies m for a caller. Callers hold s.mu.
func (s *Server) export(m *message) Msg {
	out := Msg{
		ChatID: m.chatID, ID: m.id, InlineID: m.inlineID, FromBot: m.fromBot, FromID: m.from.ID,
		Kind: m.kind, Text: m.text, ParseMode: m.parseMode, FileID: m.fileID,
		ReplyMarkup: m.markup.clone(), ReplyTo: m.replyTo,
		Date: m.date, EditDate: m.editDate, Edits: m.edits, Deleted: m.deleted, Reaction: m.reaction,
	}
	if m.poll != nil {
		out.Poll = m.poll.export()
	}
	if f, ok := s.files[m.fileID]; ok {
		out.FileName, out.Data, out.MediaURL = f.name, bytes.Clone(f.data), f.url
	}
	return out
}

// chat returns the state of a chat, inventing the chat if it is new.
// Callers hold s.mu.
func (s *Server) chat(id int64) *chatState {
	if cs, ok := s.chats[id]; ok {
		return cs
	}
	c := tgbotapi.Chat{ID: id}
	switch {
	case id > 0:
		c.Type = "private"
		c.FirstName = fmt.Sprintf("User %d", id)
		if u, ok := s.users[id]; ok {
			c.FirstName, c.LastName, c.UserName = u.FirstName, u.LastName, u.UserName
		}
	case id < -1_000_000_000_000:
		c.Type, c.Title = "supergroup", fmt.Sprintf("Supergroup %d", id)
	default:
		c.Type, c.Title = "group", fmt.Sprintf("Group %d", id)
	}
	cs := &chatState{chat: c, msgs: make(map[int]*message), members: make(map[int64]string), seen: make(map[int64]bool)}
	s.chats[id] = cs
	return cs
}

// meetChat records a chat seen in an update. Callers hold s.mu.
func (s *Server) meetChat(c tgbotapi.Chat) *chatState {
	cs := s.chat(c.ID)
	cs.chat, cs.known = c, true
	return cs
}

// meetUser records a user seen in an update. Callers hold s.mu.
func (s *Server) meetUser(u *tgbotapi.User) {
	if u != nil && u.ID != 0 {
		s.users[u.ID] = *u
	}
}

// sendTarget finds the chat a call sends to, refusing it the way Telegram
// does. Callers hold s.mu.
func (s *Server) sendTarget(c *Call) (*chatState, *Failure) {
	raw := c.Params["chat_id"]
	if raw == "" {
		return nil, badRequest("chat_id is empty")
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id == 0 {
		return nil, badRequest("chat not found")
	}
	cs, ok := s.chats[id]
	if (!ok || !cs.known) && s.opts.strictChats {
		return nil, badRequest("chat not found")
	}
	cs = s.chat(id)
	switch cs.members[s.bot.ID] {
	case "kicked":
		if cs.chat.Type == "private" {
			f := Forbidden()
			return nil, &f
		}
		return nil, &Failure{Code: http.StatusForbidden, Description: "Forbidden: bot was kicked from the " + cs.chat.Type + " chat"}
	case "left":
		return nil, &Failure{Code: http.StatusForbidden, Description: "Forbidden: bot is not a member of the " + cs.chat.Type + " chat"}
	}
	return cs, nil
}

// newMessage stores a message from the bot in a chat. Callers hold s.mu.
func (s *Server) newMessage(cs *chatState, kind string) *message {
	cs.lastID++
	m := &message{chatID: cs.chat.ID, id: cs.lastID, from: s.bot, fromBot: true, kind: kind, date: time.Now()}
	cs.msgs[m.id] = m
	return m
}

// apiMessage renders a stored message as the Bot API does. Its keyboard is
// the message's own (inlineKeyboard.shared): the result is for encoding, or the
// caller replaces it with a copy. Callers hold s.mu.
func (s *Server) apiMessage(m *message, withReply bool) tgbotapi.Message {
	from := m.from
	chat := s.chat(m.chatID).chat
	out := tgbotapi.Message{MessageID: m.id, From: &from, Chat: &chat, Date: int(m.date.Unix())}
	if !m.editDate.IsZero() {
		out.EditDate = int(m.editDate.Unix())
	}
	out.ReplyMarkup = m.markup.shared()
	switch m.kind {
	case "text":
		out.Text = m.text
	case "photo":
		out.Photo = s.photoSizes(m.fileID)
		out.Caption = m.text
	case "poll":
		out.Poll = m.poll.api()
	case "animation":
		out.Animation = s.animation(m.fileID)
		out.Document = s.document(m.fileID) // Telegram sends both
		out.Caption = m.text
	default:
		out.Document = s.document(m.fileID)
		out.Caption = m.text
	}
	if withReply && m.replyTo != 0 {
		if r, ok := s.chat(m.chatID).msgs[m.replyTo]; ok && !r.deleted {
			rm := s.apiMessage(r, false)
			out.ReplyToMessage = &rm
		}
	}
	return out
}

// incoming stores a message a user sent, from an update. Callers hold s.mu.
func (s *Server) incoming(msg *tgbotapi.Message) {
	if msg.Chat == nil {
		return
	}
	cs := s.meetChat(*msg.Chat)
	s.meetUser(msg.From)
	if msg.From != nil {
		cs.seen[msg.From.ID] = true
	}
	if msg.MessageID > cs.lastID {
		cs.lastID = msg.MessageID
	}
	m := &message{chatID: cs.chat.ID, id: msg.MessageID, kind: "text", text: msg.Text, date: time.Unix(int64(msg.Date), 0)}
	if msg.From != nil {
		m.from = *msg.From
		m.fromBot = msg.From.ID == s.bot.ID
	}
	if msg.Caption != "" || msg.Photo != nil || msg.Document != nil {
		m.kind, m.text = "document", msg.Caption
		if msg.Photo != nil {
			m.kind = "photo"
		}
	}
	if msg.ReplyToMessage != nil {
		m.replyTo = msg.ReplyToMessage.MessageID
	}
	cs.msgs[m.id] = m
}
