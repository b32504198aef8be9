package bot

import (
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
)

// outMessage is a sendMessage in the Bot API's current form. tgbotapi
// v5.5.1 writes a reply as reply_to_message_id with
// allow_sending_without_reply, and a message without a link preview as
// disable_web_page_preview: parameters the spec replaced with
// reply_parameters and link_preview_options (Bot API 7.0), which Telegram
// still reads today but need not tomorrow. Its MessageConfig cannot carry
// the new ones, so such a message goes by name through the library's
// MakeRequest (outbox.Call) with the parameters written here; it also
// sends no "entities": null.
type outMessage struct {
	chatID    int64
	text      string
	parseMode string
	replyTo   int // 0: not a reply; a reply to a deleted message is sent anyway
	noPreview bool
	markup    *tgbotapi.InlineKeyboardMarkup
}

func (m outMessage) call() *outbox.Call {
	p := tgbotapi.Params{"chat_id": strconv.FormatInt(m.chatID, 10), "text": m.text}
	p.AddNonEmpty("parse_mode", m.parseMode)
	if m.replyTo != 0 {
		p["reply_parameters"] = `{"message_id":` + strconv.Itoa(m.replyTo) + `,"allow_sending_without_reply":true}`
	}
	if m.noPreview {
		p["link_preview_options"] = `{"is_disabled":true}`
	}
	if m.markup != nil {
		_ = p.AddInterface("reply_markup", m.markup) // a keyboard always marshals
	}
	return &outbox.Call{Method: "sendMessage", Params: p}
}

// reply is the message as an outbox reply to its chat.
func (m outMessage) reply() outbox.Reply {
	r := outbox.Reply{Call: m.call(), ChatID: m.chatID, Group: m.chatID < 0}
	if m.chatID > 0 {
		r.UserID = m.chatID
	}
	return r
}
