// Package updates brings Telegram updates to the bot's handler, by long
// polling (Poll) or by webhook (Webhook), and hands them to a bounded pool
// of workers.
//
// Updates of one chat are handled one at a time in the order Telegram sent
// them, so two taps on one board are never judged at once; updates of
// different chats are handled concurrently, at most Workers at a time.
// Updates without a chat (inline queries, taps on inline messages) are
// ordered by the user who sent them. A handler that panics is logged and
// the next update goes on.
//
// Poll is our own loop around getUpdates rather than tgbotapi's
// GetUpdatesChan, which cannot be stopped and logs errors with the bot
// token in them.
//
// Delivery is at least once. An update is acknowledged to Telegram only
// once its handler has returned, that is once its effects are in the
// store: Poll confirms a batch (by the next getUpdates offset) when every
// update of it is handled, and the webhook answers 200 only then. An
// update a crash (or a shutdown deadline) cut short is therefore delivered
// again; the handler recognises one it handled in full (bot.Handle marks
// an update handled after its effects, never before).
//
// The webhook checks Telegram's secret token on every request before it
// reads the body; SetWebhook registers it with the secret, which
// tgbotapi's WebhookConfig cannot.
//
// Errors returned and logged never contain the bot token.
package updates
