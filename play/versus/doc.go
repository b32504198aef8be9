// Package versus runs matches between two group chats: one group
// challenges (Challenge, a code its link carries), an administrator of
// another accepts it choosing the ruleset and the pace (Accept), and the
// game starts with the colours drawn by lot. Each side then moves by vote
// in its own chat, with the votes of play/team (a game whose
// storage.TeamGame names both sides' chats), and the game is shown in
// both chats: its own card in White's, its mirror in Black's
// (storage.GameLink).
//
// Each group has a record (storage.VersusChat): what its administrators
// chose (the quorum that closes its votes early, the matches turned off),
// its Glicko-2 rating, its season and its latest matches. A game that
// ends is counted in both groups' records once (GameOver, marked in each
// record), and the season table and the podium are read from them.
//
// The package builds on the core's seams (play.Service.StartGame) and
// knows nothing of Telegram; the bot's side is bot/versus.
package versus
