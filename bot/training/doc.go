// Package training is the course, the puzzles and the groups' daily
// puzzle in Telegram: a bot.Module (Module) over play/training's services,
// with its buttons, the /learn and /puzzle commands and their /start
// links, the daily card's tick and its row in a group's /settings. It
// speaks to the bot only through *bot.Kit.
//
// The course and the puzzles are private: each shows a board photo whose
// message is edited in place as the player taps (the tap's own message is
// the one edited, so nothing about the message needs storing). The daily
// puzzle is a group's: one card a day, posted by the tick from the day's
// claim in the store, so that of several replicas only one posts it;
// anyone taps a move on it, the answer comes as a toast (which costs the
// group no message), and only the first solvers edit the card.
//
// Every text it composes fits Telegram's limits at its worst
// (limits_test.go).
package training
