package telegramtest

import (
	"encoding/json"
	"fmt"
	"image"
	"regexp"
	"strconv"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// User returns a (human) user.
func User(id int64, first, username, lang string) tgbotapi.User {
	return tgbotapi.User{ID: id, FirstName: first, UserName: username, LanguageCode: lang}
}

// PrivateChat returns the private chat with a user; its id is the user's.
func PrivateChat(u tgbotapi.User) tgbotapi.Chat {
	return tgbotapi.Chat{ID: u.ID, Type: "private", FirstName: u.FirstName, LastName: u.LastName, UserName: u.UserName}
}

// GroupChat returns a group chat. Group ids are negative; ids below
// -1000000000000 are supergroups, as on Telegram.
func GroupChat(id int64, title string) tgbotapi.Chat {
	typ := "group"
	if id < -1_000_000_000_000 {
		typ = "supergroup"
	}
	return tgbotapi.Chat{ID: id, Type: typ, Title: title}
}

// commandRE matches a leading bot command as Telegram marks it.
var commandRE = regexp.MustCompile(`^/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]{3,32})?`)

// TextMessage builds a message update from a user. A leading /command, with
// or without @botname, gets the bot_command entity tgbotapi's IsCommand
// needs. The message takes the chat's next message_id.
func (s *Server) TextMessage(chat tgbotapi.Chat, from tgbotapi.User, text string) tgbotapi.Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	return tgbotapi.Update{Message: s.userMessage(chat, from, text)}
}

// ReplyMessage builds a message update replying to the message replyTo of
// the chat, which the update carries as Telegram does.
func (s *Server) ReplyMessage(chat tgbotapi.Chat, from tgbotapi.User, replyTo int, text string) tgbotapi.Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.userMessage(chat, from, text)
	m.ReplyToMessage = s.shownMessage(chat, replyTo)
	return tgbotapi.Update{Message: m}
}

// userMessage builds a message from a user. Callers hold s.mu.
func (s *Server) userMessage(chat tgbotapi.Chat, from tgbotapi.User, text string) *tgbotapi.Message {
	cs := s.meetChat(chat)
	cs.lastID++
	m := &tgbotapi.Message{MessageID: cs.lastID, From: &from, Chat: &chat, Date: int(time.Now().Unix()), Text: text}
	if cmd := commandRE.FindString(text); cmd != "" {
		m.Entities = []tgbotapi.MessageEntity{{Type: "bot_command", Offset: 0, Length: len(cmd)}}
	}
	return m
}

// shownMessage returns a message of a chat as an update carries it: the
// message as the fake knows it, or a bare one. Callers hold s.mu.
func (s *Server) shownMessage(chat tgbotapi.Chat, messageID int) *tgbotapi.Message {
	if m, ok := s.chat(chat.ID).msgs[messageID]; ok {
		msg := s.apiMessage(m, false)
		msg.ReplyMarkup = m.markup.clone() // the update is the caller's
		return &msg
	}
	return &tgbotapi.Message{MessageID: messageID, Chat: &chat, Date: int(time.Now().Unix())}
}

// CallbackQuery builds the update for a user pressing a button with data
// on the message messageID of the chat. It carries the message as the fake
// knows it and a query id unique in the server.
func (s *Server) CallbackQuery(chat tgbotapi.Chat, from tgbotapi.User, messageID int, data string) tgbotapi.Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.meetChat(chat)
	return tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{
		ID:           fmt.Sprintf("cbq-%d", s.nextSeq()),
		From:         &from,
		Message:      s.shownMessage(chat, messageID),
		ChatInstance: "ci" + strconv.FormatInt(chat.ID, 10),
		Data:         data,
	}}
}

// CallbackOnInlineMessage builds the update for a user pressing a button
// with data on a message sent via inline mode.
func (s *Server) CallbackOnInlineMessage(from tgbotapi.User, inlineMessageID, data string) tgbotapi.Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	return tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{
		ID:              fmt.Sprintf("cbq-%d", s.nextSeq()),
		From:            &from,
		InlineMessageID: inlineMessageID,
		ChatInstance:    "ci-inline",
		Data:            data,
	}}
}

// InlineQuery builds an inline query update, with an id unique in the
// server.
func (s *Server) InlineQuery(from tgbotapi.User, query string) tgbotapi.Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	return tgbotapi.Update{InlineQuery: &tgbotapi.InlineQuery{
		ID: fmt.Sprintf("iq-%d", s.nextSeq()), From: &from, Query: query, ChatType: "sender",
	}}
}

// ChosenInlineResult builds the update for a user choosing the result
// resultID of the bot's latest answer holding it. As on Telegram, the
// update has an inline_message_id only when the result has an inline
// keyboard; the fake then models the sent message (InlineMessage) from the
// result's content.
func (s *Server) ChosenInlineResult(from tgbotapi.User, resultID, query string) tgbotapi.Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &tgbotapi.ChosenInlineResult{ResultID: resultID, From: &from, Query: query}
	if raw, ok := s.inlineResult(resultID); ok {
		r.InlineMessageID = s.sendInlineResult(raw)
	}
	return tgbotapi.Update{ChosenInlineResult: r}
}

// sendInlineResult models the message an inline result sends and returns
// its inline_message_id, or "" when it has no keyboard. Callers hold s.mu.
func (s *Server) sendInlineResult(raw json.RawMessage) string {
	var r struct {
		Type        string          `json:"type"`
		Caption     string          `json:"caption"`
		ParseMode   string          `json:"parse_mode"`
		PhotoURL    string          `json:"photo_url"`
		PhotoFileID string          `json:"photo_file_id"`
		ReplyMarkup json.RawMessage `json:"reply_markup"`
		Content     *struct {
			Text      string `json:"message_text"`
			ParseMode string `json:"parse_mode"`
		} `json:"input_message_content"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return ""
	}
	markup, f := parseMarkup(string(r.ReplyMarkup), true)
	if f != nil || markup == nil {
		return ""
	}
	m := s.inlineMessage(fmt.Sprintf("inline-%d", s.nextSeq()))
	m.markup = markup
	text, parseMode := r.Caption, r.ParseMode
	switch {
	case r.Content != nil && r.Content.Text != "":
		m.kind = "text"
		text, parseMode = r.Content.Text, r.Content.ParseMode
	case r.Type == "photo" && r.PhotoFileID != "":
		m.kind, m.fileID = "photo", r.PhotoFileID
	case r.Type == "photo":
		m.kind, m.fileID = "photo", s.addFile("photo", "", nil, r.PhotoURL, image.Config{}).id
	default:
		m.kind = r.Type
	}
	if t, f := format(text, parseMode); f == nil {
		m.text, m.format, m.parseMode = t.text, t.entities, parseMode
	}
	return m.inlineID
}
