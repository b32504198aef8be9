// Package bot is the Telegram side of Bashni: updates in; messages, board
// photos and keyboards out.
//
// An update goes through one pipeline (handle.go): the middleware every
// update gets (metrics, logging of faults, handled once with its replies
// stored in the write that marks it, a loss on time settled), then a
// route by its kind to a handler found in a table (routes.go: a button's
// callback kind, or a command's name). Handlers decide, a loop sends: a
// handler turns an update into Replies and enqueues them on the outbox
// (bot/telegram/outbox), which paces and sends them. A game's changes are stored
// by package play with the events they owe the players, and this package
// shows them (events.go). Game logic lives in play; this package only
// translates between Telegram and it. Updates come from bot/telegram/updates (long
// polling or webhook).
//
// A game's card (the board photo, its caption and buttons, edited in
// place) lives in the card*.go files, one purpose each; card.go tells its
// story and how their names say what writes.
//
// The words are package texts' (English and Russian data files); errors
// map to what a user reads in one place (package texts, Catalog.Error).
package bot
