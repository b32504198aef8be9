// Package bot is the Telegram side of Bashni: updates in; messages, board
// photos and keyboards out.
//
// Handlers decide, a loop sends: a handler turns an update into Replies and
// enqueues them on the outbox (bot/outbox), which paces and sends them and
// reports results back (so the message id of a new card can be stored).
// Game logic lives in package play; this package only translates between
// Telegram and it. Updates come from bot/updates (long polling or webhook).
//
// Texts are in English and Russian (texts_en.go, texts_ru.go); errors map to
// what a user reads in one table (errors.go).
package bot
