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
// token in them. An update is confirmed to Telegram (by the next
// getUpdates offset) once it has been handed to a worker; on shutdown Poll
// lets the handlers finish and confirms what they handled, so a restart
// handles nothing twice. An update that was confirmed but whose handler
// had not finished when the process died is lost; the game service's
// versioned writes make replaying instead unsafe anyway.
//
// The webhook checks Telegram's secret token on every request, answers at
// once and handles the update afterwards; SetWebhook registers it with the
// secret, which tgbotapi's WebhookConfig cannot.
//
// Errors returned and logged never contain the bot token.
package updates
