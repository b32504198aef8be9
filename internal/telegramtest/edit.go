package telegramtest

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// notModified is Telegram's answer to an edit that changes nothing; the bot
// must treat it as success.
const notModified = "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"

// editTarget finds the message an edit names, by chat_id and message_id or
// by inline_message_id. Callers hold s.mu.
func (s *Server) editTarget(c *Call) (*message, *Failure) {
	if id := c.Params["inline_message_id"]; id != "" {
		m, ok := s.inline[id]
		if !ok {
			return nil, badRequest("MESSAGE_ID_INVALID")
		}
		return m, nil
	}
	if c.Params["chat_id"] == "" {
		return nil, badRequest("chat_id is empty")
	}
	if c.Params["message_id"] == "" {
		return nil, badRequest("message identifier is not specified")
	}
	chatID, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
	msgID, _ := strconv.Atoi(c.Params["message_id"])
	cs, ok := s.chats[chatID]
	if !ok {
		return nil, badRequest("message to edit not found")
	}
	m, ok := cs.msgs[msgID]
	if !ok || m.deleted {
		return nil, badRequest("message to edit not found")
	}
	if !m.fromBot {
		return nil, badRequest("message can't be edited")
	}
	return m, nil
}

// edited stamps a successful edit and answers as Telegram does: true for an
// inline message, else the edited message. Callers hold s.mu.
func (s *Server) edited(m *message) any {
	m.edits++
	m.editDate = time.Now()
	if m.inlineID != "" {
		return sent{m, true}
	}
	return sent{m, s.apiMessage(m, true)}
}

func (s *Server) editMessageText(c *Call) (any, *Failure) {
	m, f := s.editTarget(c)
	if f != nil {
		return nil, f
	}
	text, f := messageText(c)
	if f != nil {
		return nil, f
	}
	if m.kind != "text" && m.kind != "" {
		return nil, badRequest("there is no text in the message to edit")
	}
	// No reply_markup removes the keyboard, as on Telegram.
	markup, f := parseMarkup(c.Params["reply_markup"], true)
	if f != nil {
		return nil, f
	}
	if m.kind == "text" && text.text == m.text && text.entities == m.format && sameMarkup(markup, m.markup) {
		return nil, badRequest(notModified)
	}
	m.kind, m.text, m.format, m.parseMode, m.markup = "text", text.text, text.entities, c.Params["parse_mode"], markup
	return s.edited(m), nil
}

func (s *Server) editMessageCaption(c *Call) (any, *Failure) {
	m, f := s.editTarget(c)
	if f != nil {
		return nil, f
	}
	caption, f := formatCaption(c.Params["caption"], c.Params["parse_mode"])
	if f != nil {
		return nil, f
	}
	if m.kind == "text" {
		return nil, badRequest("there is no caption in the message to edit")
	}
	markup, f := parseMarkup(c.Params["reply_markup"], true)
	if f != nil {
		return nil, f
	}
	if caption.text == m.text && caption.entities == m.format && sameMarkup(markup, m.markup) {
		return nil, badRequest(notModified)
	}
	m.text, m.format, m.parseMode, m.markup = caption.text, caption.entities, c.Params["parse_mode"], markup
	return s.edited(m), nil
}

// inputMedia is the media parameter of editMessageMedia.
type inputMedia struct {
	Type      string `json:"type"`
	Media     string `json:"media"`
	Caption   string `json:"caption"`
	ParseMode string `json:"parse_mode"`
}

var mediaTypes = map[string]bool{"photo": true, "document": true, "animation": true, "video": true, "audio": true}

func (s *Server) editMessageMedia(c *Call) (any, *Failure) {
	m, f := s.editTarget(c)
	if f != nil {
		return nil, f
	}
	raw := c.Params["media"]
	if raw == "" {
		// What tgbotapi sends when the media is a pointer.
		return nil, badRequest("there is no media in the request")
	}
	var in inputMedia
	if err := json.Unmarshal([]byte(raw), &in); err != nil {
		return nil, badRequest("can't parse InputMedia JSON object")
	}
	if !mediaTypes[in.Type] {
		return nil, badRequest("can't parse InputMedia: unsupported media type %q", in.Type)
	}
	if m.kind == "text" {
		return nil, badRequest("there is no media in the message to edit")
	}
	if m.inlineID != "" && (strings.HasPrefix(in.Media, "attach://") || len(c.Files) > 0) {
		return nil, badRequest("can't upload a file to edit an inline message: use a file_id or a URL")
	}
	caption, f := formatCaption(in.Caption, in.ParseMode)
	if f != nil {
		return nil, f
	}
	markup, f := parseMarkup(c.Params["reply_markup"], true)
	if f != nil {
		return nil, f
	}
	file, f := s.inputFileRef(c, in.Media, in.Type)
	if f != nil {
		return nil, f
	}
	if file.id == m.fileID && caption.text == m.text && caption.entities == m.format && sameMarkup(markup, m.markup) {
		return nil, badRequest(notModified)
	}
	m.kind, m.fileID = in.Type, file.id
	m.text, m.format, m.parseMode, m.markup = caption.text, caption.entities, in.ParseMode, markup
	return s.edited(m), nil
}

func (s *Server) editMessageReplyMarkup(c *Call) (any, *Failure) {
	m, f := s.editTarget(c)
	if f != nil {
		return nil, f
	}
	markup, f := parseMarkup(c.Params["reply_markup"], true)
	if f != nil {
		return nil, f
	}
	if sameMarkup(markup, m.markup) {
		return nil, badRequest(notModified)
	}
	m.markup = markup
	return s.edited(m), nil
}

func (s *Server) deleteMessage(c *Call) (any, *Failure) {
	chatID, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
	msgID, _ := strconv.Atoi(c.Params["message_id"])
	if c.Params["chat_id"] == "" {
		return nil, badRequest("chat_id is empty")
	}
	if msgID == 0 {
		return nil, badRequest("message identifier is not specified")
	}
	cs, ok := s.chats[chatID]
	if !ok {
		return nil, badRequest("message to delete not found")
	}
	m, ok := cs.msgs[msgID]
	if !ok || m.deleted {
		return nil, badRequest("message to delete not found")
	}
	// A bot deletes others' messages in private chats, and in groups only
	// as an administrator.
	if st := cs.members[s.bot.ID]; !m.fromBot && cs.chat.Type != "private" && st != "administrator" && st != "creator" {
		return nil, badRequest("message can't be deleted")
	}
	m.deleted = true
	return true, nil
}

// botReactions are the emoji a bot may react with (ReactionTypeEmoji in the
// Bot API) that the fake knows; others are refused as Telegram refuses
// them.
var botReactions = map[string]bool{"👍": true, "👎": true, "🤔": true, "👌": true, "🤷": true, "🙈": true, "✍": true}

// setMessageReaction sets the bot's reaction on a message: at most one
// emoji, on a message that exists; an empty list removes it.
func (s *Server) setMessageReaction(c *Call) (any, *Failure) {
	chatID, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
	msgID, _ := strconv.Atoi(c.Params["message_id"])
	if c.Params["chat_id"] == "" || msgID == 0 {
		return nil, badRequest("chat_id and message_id are required")
	}
	cs, ok := s.chats[chatID]
	if !ok {
		return nil, badRequest("chat not found")
	}
	m, ok := cs.msgs[msgID]
	if !ok || m.deleted {
		return nil, badRequest("message to react not found")
	}
	var rs []struct {
		Type  string `json:"type"`
		Emoji string `json:"emoji"`
	}
	if raw := c.Params["reaction"]; raw != "" {
		if err := json.Unmarshal([]byte(raw), &rs); err != nil {
			return nil, badRequest("can't parse reaction JSON: %v", err)
		}
	}
	switch {
	case len(rs) == 0:
		m.reaction = ""
	case len(rs) > 1:
		return nil, badRequest("REACTIONS_TOO_MANY")
	case rs[0].Type != "emoji" || !botReactions[rs[0].Emoji]:
		return nil, badRequest("REACTION_INVALID")
	default:
		m.reaction = rs[0].Emoji
	}
	return true, nil
}
