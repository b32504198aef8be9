// Package telegramtest is a fake Telegram Bot API server for tests.
//
// Telegram cannot be reached from tests, so the bot is driven end to end
// against this fake through the real tgbotapi client:
//
//	srv := telegramtest.New(t)
//	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(srv.Token(), srv.Endpoint())
//
// The fake answers the methods the bot uses the way Telegram does, including
// the ways Telegram says no: an edit that changes nothing is refused with
// "message is not modified", an edit without reply_markup removes the inline
// keyboard, a callback query can be answered once, HTML that does not parse is
// refused, a second concurrent getUpdates ends the first with 409, and in
// groups privacy mode hides plain text from the bot. Bugs in how the bot uses
// the API then show up in tests rather than in production.
//
// The fake keeps a model of every chat's messages (Message, Messages,
// InlineMessage), records every request (Calls, WaitFor, WaitCalls), tells
// of every message sent or edited the moment it has it (OnMessage), feeds
// updates to getUpdates (PushUpdate and the update builders; PollAnswer
// answers a poll the bot sent with sendPoll, PollOf shows its counts), delivers
// updates to a webhook (DeliverWebhook) and fails calls on demand (FailNext,
// FailWhen, SetLatency).
//
// Error descriptions are Telegram's where they are well known ("Bad Request:
// message is not modified: ...", "Forbidden: bot was blocked by the user",
// "Too Many Requests: retry after N"); the rarer ones are close paraphrases,
// so the bot should branch on error codes and the well-known descriptions
// only.
package telegramtest
