package updates

import tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

// ChatOf returns the id of the chat an update belongs to: the chat of a
// message (new, edited, channel post), of the message under a tapped
// button, or of a membership change or join request. It is 0 for updates
// outside any chat: inline queries, chosen inline results, taps on inline
// messages, payments, polls.
func ChatOf(u tgbotapi.Update) int64 {
	for _, m := range []*tgbotapi.Message{u.Message, u.EditedMessage, u.ChannelPost, u.EditedChannelPost} {
		if m != nil && m.Chat != nil {
			return m.Chat.ID
		}
	}
	switch {
	case u.CallbackQuery != nil:
		if m := u.CallbackQuery.Message; m != nil && m.Chat != nil {
			return m.Chat.ID
		}
	case u.MyChatMember != nil:
		return u.MyChatMember.Chat.ID
	case u.ChatMember != nil:
		return u.ChatMember.Chat.ID
	case u.ChatJoinRequest != nil:
		return u.ChatJoinRequest.Chat.ID
	}
	return 0
}

// senderOf returns the id of the user an update came from, or 0.
func senderOf(u tgbotapi.Update) int64 {
	var from *tgbotapi.User
	switch {
	case u.Message != nil:
		from = u.Message.From
	case u.EditedMessage != nil:
		from = u.EditedMessage.From
	case u.CallbackQuery != nil:
		from = u.CallbackQuery.From
	case u.InlineQuery != nil:
		from = u.InlineQuery.From
	case u.ChosenInlineResult != nil:
		from = u.ChosenInlineResult.From
	case u.ShippingQuery != nil:
		from = u.ShippingQuery.From
	case u.PreCheckoutQuery != nil:
		from = u.PreCheckoutQuery.From
	case u.PollAnswer != nil:
		from = &u.PollAnswer.User
	}
	if from == nil {
		return 0
	}
	return from.ID
}

// orderKey is what updates are ordered by: the chat, else the user. A
// private chat's id is its user's, so a user's inline taps and their
// private chat share one order.
func orderKey(u tgbotapi.Update) int64 {
	if id := ChatOf(u); id != 0 {
		return id
	}
	return senderOf(u)
}
