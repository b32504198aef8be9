// Package telegram is the bot's Telegram plumbing, which knows no game:
// its sub-packages bring updates in (updates: long polling or webhook,
// each chat's updates in order) and send replies out (outbox: paced to
// Telegram's budgets, kept in the store until sent), and this package
// holds what both need: removing the bot's token from anything logged,
// and waiting (a back-off between retries, a sleep that ends with its
// context).
package telegram
