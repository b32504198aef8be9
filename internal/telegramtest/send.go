package telegramtest

import (
	"encoding/json"
	"strconv"
	"strings"
)

func (s *Server) getMe(*Call) (any, *Failure) { return s.bot, nil }

func (s *Server) sendMessage(c *Call) (any, *Failure) {
	cs, f := s.sendTarget(c)
	if f != nil {
		return nil, f
	}
	text, f := messageText(c)
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
	m := s.newMessage(cs, "text")
	m.text, m.format, m.parseMode = text.text, text.entities, c.Params["parse_mode"]
	m.markup, m.replyTo = markup, replyTo
	return sent{m, s.apiMessage(m, true)}, nil
}

func (s *Server) sendPhoto(c *Call) (any, *Failure)     { return s.sendMedia(c, "photo") }
func (s *Server) sendDocument(c *Call) (any, *Failure)  { return s.sendMedia(c, "document") }
func (s *Server) sendAnimation(c *Call) (any, *Failure) { return s.sendMedia(c, "animation") }

// sendMedia sends a file in the form field named like its kind.
func (s *Server) sendMedia(c *Call, kind string) (any, *Failure) {
	cs, f := s.sendTarget(c)
	if f != nil {
		return nil, f
	}
	caption, f := formatCaption(c.Params["caption"], c.Params["parse_mode"])
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
	file, f := s.inputFile(c, kind, kind)
	if f != nil {
		return nil, f
	}
	m := s.newMessage(cs, kind)
	m.text, m.format, m.parseMode = caption.text, caption.entities, c.Params["parse_mode"]
	m.fileID, m.markup, m.replyTo = file.id, markup, replyTo
	return sent{m, s.apiMessage(m, true)}, nil
}

// replyTarget checks the message replied to: reply_parameters (the
// current form), or reply_to_message_id with allow_sending_without_reply
// (the form the spec no longer lists, which Telegram still reads). Callers
// hold s.mu.
func replyTarget(cs *chatState, c *Call) (int, *Failure) {
	raw, lenient := c.Params["reply_to_message_id"], c.Params["allow_sending_without_reply"] == "true"
	if rp := c.Params["reply_parameters"]; rp != "" {
		var p struct {
			MessageID int  `json:"message_id"`
			Lenient   bool `json:"allow_sending_without_reply"`
		}
		if err := json.Unmarshal([]byte(rp), &p); err != nil || p.MessageID == 0 {
			return 0, badRequest("can't parse reply parameters JSON object")
		}
		raw, lenient = strconv.Itoa(p.MessageID), p.Lenient
	}
	if raw == "" {
		return 0, nil
	}
	id, _ := strconv.Atoi(raw)
	if m, ok := cs.msgs[id]; ok && !m.deleted {
		return id, nil
	}
	if lenient {
		return 0, nil
	}
	return 0, badRequest("replied message not found")
}

var chatActions = map[string]bool{
	"typing": true, "upload_photo": true, "record_video": true, "upload_video": true,
	"record_voice": true, "upload_voice": true, "upload_document": true, "choose_sticker": true,
	"find_location": true, "record_video_note": true, "upload_video_note": true,
}

func (s *Server) sendChatAction(c *Call) (any, *Failure) {
	if _, f := s.sendTarget(c); f != nil {
		return nil, f
	}
	if !chatActions[strings.ToLower(c.Params["action"])] {
		return nil, badRequest("wrong parameter action in request")
	}
	return true, nil
}

// messageText reads a message's text as Telegram does for sendMessage and
// editMessageText: parsed by its parse_mode, not empty, not too long.
func messageText(c *Call) (formatted, *Failure) {
	text, f := format(c.Params["text"], c.Params["parse_mode"])
	if f != nil {
		return text, f
	}
	if text.text == "" {
		return text, badRequest("message text is empty")
	}
	return text, checkLength(text, false)
}
